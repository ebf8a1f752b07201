// The tensors of the seed programs, computed eagerly.
//
// Seed 001 builds a 2x3 and a 3x2 constant and multiplies them; seed 000
// fits y = w*x + b to seven points. Chapter 2 will run both as graphs; here
// layer 1's kernels compute the same numbers at once, so the printout of
// chapter 2's Session has something to be checked against.
#include <minitf/minitf.h>

#include <iostream>

namespace tf = minitf;

int main() {
  // --8<-- [start:seed001]
  // Seed 001: a = tf.constant([1.,2.,3.,4.,5.,6.], shape=[2,3], name='a')
  tf::Tensor a = tf::eager::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
  tf::Tensor b = tf::eager::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2});
  tf::Tensor c = tf::eager::matmul(a, b);
  std::cout << "a =\n"
            << a << "\nb =\n"
            << b << "\nc = matmul(a, b) =\n"
            << c << "\n";
  // --8<-- [end:seed001]

  // --8<-- [start:seed000]
  // Seed 000's data, and its loss at the starting point w = 0, b = 0:
  // loss = reduce_mean(square(w * x + b - out)).
  tf::Tensor x({1.f, 23.f, 4.f, 5.f, 7.f, 5.f, 7.f});
  tf::Tensor out({3.f, 5.f, 7.f, 9.f, 11.f, 13.f, 15.f});
  tf::Tensor w(0.f), bias(0.f);
  tf::Tensor y = tf::eager::add(tf::eager::multiply(w, x), bias);
  tf::Tensor loss =
      tf::eager::reduce_mean(tf::eager::square(tf::eager::subtract(y, out)));
  std::cout << "\nx = " << x << "\nout = " << out
            << "\nloss at w=0, b=0: " << loss << "\n";
  // --8<-- [end:seed000]

  // --8<-- [start:errors]
  // Bad input is a typed error that names the op and the shapes.
  try {
    tf::eager::matmul(a, a);
  } catch (const tf::errors::InvalidArgumentError& e) {
    std::cout << "\nmatmul(a, a) raised InvalidArgumentError (code " << e.code()
              << "): " << e.what() << "\n";
  }
  // --8<-- [end:errors]
  return 0;
}
