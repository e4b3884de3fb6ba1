// Reads the reference-value files in tests/fixtures/ (format: tests/fixtures/fixture_format.py):
// a list of named cases, each a map from value name to a matrix.
#pragma once

#include <Eigen/Core>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace fixtures {

struct Case {
  std::string name;
  std::map<std::string, Eigen::MatrixXd> values;
  const Eigen::MatrixXd& operator[](const std::string& key) const { return values.at(key); }
  double scalar(const std::string& key) const { return values.at(key)(0, 0); }
};

inline std::vector<Case> load(const std::string& file) {
  std::ifstream in(std::string(LLMMATH_FIXTURES_DIR) + "/" + file);
  if (!in) throw std::runtime_error("cannot open fixture " + file);
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "case") {
      cases.push_back({});
      words >> cases.back().name;
      continue;
    }
    if (cases.empty()) throw std::runtime_error(file + ": value before the first case");
    Eigen::Index rows = 0, cols = 0;
    words >> rows >> cols;
    Eigen::MatrixXd M(rows, cols);
    for (Eigen::Index i = 0; i < rows; ++i)
      for (Eigen::Index j = 0; j < cols; ++j) {
        std::string x;  // via strtod so that "nan" and "inf" read back
        words >> x;
        M(i, j) = std::strtod(x.c_str(), nullptr);
      }
    if (!words) throw std::runtime_error(file + ": short value " + key);
    cases.back().values[key] = M;
  }
  return cases;
}

}  // namespace fixtures
