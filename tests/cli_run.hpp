#pragma once
/// @file cli_run.hpp
/// Runs the built `flocklife` executable for end-to-end CLI tests: stdout and stderr together,
/// the exit status, a 120 s limit so that a hang fails the test instead of stalling it.
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "test_paths.hpp"

namespace flocklife::test {

struct CliResult {
  int status = -1;      ///< exit status; -1 if the process did not exit normally
  std::string output;   ///< stdout and stderr together
  /// The last non-empty line of the output (where --json puts its object).
  std::string lastLine() const {
    std::string s = output;
    while (!s.empty() && s.back() == '\n') s.pop_back();
    const auto nl = s.rfind('\n');
    return nl == std::string::npos ? s : s.substr(nl + 1);
  }
};

/// Runs the shell command `cmd` (which redirects stderr itself if wanted) and collects its output.
inline CliResult runCommand(const std::string& cmd) {
  CliResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

/// `flocklife <args>` through the shell (args are shell words: quote paths yourself), within
/// 120 s; `wrapper` (e.g. "xvfb-run -a") goes in front of the executable.
inline CliResult runFlocklife(const std::string& args, const std::string& wrapper = "") {
  return runCommand("timeout 120 " + (wrapper.empty() ? "" : wrapper + " ") + "'" + flocklifeExe() + "' " + args + " 2>&1");
}

/// Runs `flocklife <args>` (through `wrapper`, as runFlocklife) and expects exit status `status`
/// (2: a usage or input error) and `message` somewhere in its output; returns the result for more
/// checks.
inline CliResult expectError(const std::string& args, const std::string& message, int status = 2,
                             const std::string& wrapper = "") {
  CliResult r = runFlocklife(args, wrapper);
  EXPECT_EQ(r.status, status) << args << "\n" << r.output;
  EXPECT_NE(r.output.find(message), std::string::npos) << args << "\nexpected: " << message << "\ngot: " << r.output;
  return r;
}

/// Starts `flocklife args...` in the background with standard output and error to the file `log`,
/// SIGHUP at its default action (flocklife leaves an inherited SIG_IGN, nohup's, as it is), and
/// `pathFirst` (when given) put in front of PATH; returns its process id, for signals.
inline pid_t startFlocklife(const std::vector<std::string>& args, const std::string& log,
                            const std::string& pathFirst = "") {
  const pid_t pid = fork();
  if (pid == 0) {
    std::signal(SIGHUP, SIG_DFL);
    if (!pathFirst.empty()) setenv("PATH", (pathFirst + ":" + std::getenv("PATH")).c_str(), 1);
    std::freopen(log.c_str(), "w", stdout);
    dup2(fileno(stdout), 2);
    std::vector<char*> argv;
    const std::string exe = flocklifeExe();
    argv.push_back(const_cast<char*>(exe.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

/// Waits for `pid`, at most `seconds` (then kills it and returns -2); returns its exit status, or
/// -1 when a signal ended it.
inline int waitExit(pid_t pid, int seconds = 60) {
  int st = 0;
  for (int i = 0; i < seconds * 100; ++i) {
    if (::waitpid(pid, &st, WNOHANG) == pid) return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &st, 0);
  return -2;
}

}  // namespace flocklife::test
