// Exercise 7.5's piece of the engine: your GradientIsStale, asked by every
// ConditionalAccumulator whenever a gradient arrives.
//
// The build links this file only into the seed program built on your code
// (seed_distributed_with_05_stale_gradient_rule, made by
// `python3 tools/learn.py run 7.5`): there seed 003's synchronous training
// counts and drops its workers' gradients by your rule. The exercise's tests
// do not link it, so that they can compare your rule with the library's
// accumulator.
#include "minitf/distributed/training/conditional_accumulator.h"
#include "stale_gradient_rule.h"

MINITF_REGISTER_STALE_GRADIENT_RULE(minitf::exercises::GradientIsStale, 1);
