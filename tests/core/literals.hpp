// Eigen vectors and matrices written as literals in tests: vec({1, 2}), mat({{1, 0}, {0, 1}}).
#pragma once

#include <Eigen/Core>
#include <initializer_list>

namespace literals {

/// A vector from its entries.
inline Eigen::VectorXd vec(std::initializer_list<double> xs) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(xs.size()));
  Eigen::Index i = 0;
  for (double x : xs) v(i++) = x;
  return v;
}

/// A matrix from its rows (all of the first row's length).
inline Eigen::MatrixXd mat(std::initializer_list<std::initializer_list<double>> rows) {
  Eigen::MatrixXd M(static_cast<Eigen::Index>(rows.size()),
                    static_cast<Eigen::Index>(rows.begin()->size()));
  Eigen::Index i = 0;
  for (auto r : rows) {
    Eigen::Index j = 0;
    for (double x : r) M(i, j++) = x;
    ++i;
  }
  return M;
}

}  // namespace literals
