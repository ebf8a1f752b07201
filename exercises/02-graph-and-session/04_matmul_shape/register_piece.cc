// Exercise 2.4's piece of the engine: your MatMulShape, registered as the
// shape function of MatMul in place of the library's.
//
// The build links this file only into the seed program built on your code
// (seed_matmul_with_04_matmul_shape, made by `python3 tools/learn.py run
// 2.4`): there every tf::matmul finds its output's shape with your function.
// The exercise's tests do not link it, so that they can compare your
// function with the library's.
#include "matmul_shape.h"
#include "minitf/graph/op_def.h"

MINITF_REGISTER_SHAPE_FN("MatMul", minitf::exercises::MatMulShape, 1);
