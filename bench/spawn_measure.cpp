// Runs one command and reports its wall time and peak RSS, for
// bench/whole_process.py:
//
//   spawn_measure RESULT_FILE COMMAND [ARGS...]
//
// writes "wall_ns max_rss_kib exit_code user_ns sys_ns" to RESULT_FILE. The
// command inherits stdin/stdout/stderr. Why not time it from Python: Linux
// carries the parent's peak RSS into a forked child (the copied mm's high-water
// mark survives exec), so a child of the Python interpreter never reports less
// than Python's ~9 MiB; a child of this small program starts from ~1 MiB.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>

namespace {
long long now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}
long long tv_ns(const timeval& tv) { return static_cast<long long>(tv.tv_sec) * 1000000000LL + tv.tv_usec * 1000LL; }
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: spawn_measure RESULT_FILE COMMAND [ARGS...]\n");
    return 2;
  }
  const long long start = now_ns();
  const pid_t pid = fork();
  if (pid < 0) {
    std::perror("spawn_measure: fork");
    return 1;
  }
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    std::perror("spawn_measure: exec");
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) != pid) {
    std::perror("spawn_measure: wait4");
    return 1;
  }
  const long long wall = now_ns() - start;
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::FILE* out = std::fopen(argv[1], "w");
  if (out == nullptr) {
    std::perror("spawn_measure: result file");
    return 1;
  }
  std::fprintf(out, "%lld %ld %d %lld %lld\n", wall, usage.ru_maxrss, code, tv_ns(usage.ru_utime),
               tv_ns(usage.ru_stime));
  return std::fclose(out) == 0 ? 0 : 1;
}
