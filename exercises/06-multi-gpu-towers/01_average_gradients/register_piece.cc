// Exercise 6.1's piece of the engine: your AverageGradients, run wherever
// the program calls tf::average_gradients.
//
// The build links this file only into the seed program built on your code
// (seed_multi_gpu_model_with_01_average_gradients, made by
// `python3 tools/learn.py run 6.1`): there seed 004's towers meet in your
// function. The exercise's tests do not link it, so that they can compare
// your function with the library's.
#include "average_gradients.h"
#include "minitf/towers/average_gradients.h"

MINITF_REGISTER_AVERAGE_GRADIENTS(minitf::exercises::AverageGradients, 1);
