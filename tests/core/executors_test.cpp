// The cluster executors of `benchmark` (core/src/commands/benchmark/executors.hpp): parsing
// --executor and --slurm-args, the sbatch and GNU parallel command lines, sbatch's job id, the
// task script (run here by /bin/sh), and the refusals when a tool is missing. The executors
// against a real Slurm cluster and GNU parallel: tests/sweeps/test_cluster_executors.py.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <algorithm>
#include <boost/filesystem.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "commands/benchmark/executors.hpp"
#include "jolt/host/subprocess.hpp"
#include "temp_dir.hpp"

namespace fs = boost::filesystem;
using namespace jolt::core;
using jolt::core::testing::slurp;
using jolt::core::testing::TempDir;

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

int sh(const std::string& line) {
  const int st = std::system(line.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// Sets PATH for one scope.
struct PathOverride {
  std::string old;
  explicit PathOverride(const std::string& path)
      : old(std::getenv("PATH") ? std::getenv("PATH") : "") {
    ::setenv("PATH", path.c_str(), 1);
  }
  ~PathOverride() { ::setenv("PATH", old.c_str(), 1); }
};

}  // namespace

TEST_CASE("--executor names") {
  CHECK(parse_executor("local") == ExecutorKind::kLocal);
  CHECK(parse_executor("slurm") == ExecutorKind::kSlurm);
  CHECK(parse_executor("parallel") == ExecutorKind::kParallel);
  CHECK_FALSE(parse_executor("Slurm").has_value());
  CHECK_FALSE(parse_executor("").has_value());
  CHECK(std::string(executor_name(ExecutorKind::kParallel)) == "parallel");
}

TEST_CASE("--slurm-args is split like a shell line") {
  CHECK(split_shell_words("") == std::vector<std::string>{});
  CHECK(split_shell_words("  --partition=long\t--time=\"02:00:00\" '--comment=a b' x\\ y") ==
        std::vector<std::string>{"--partition=long", "--time=02:00:00", "--comment=a b", "x y"});
  CHECK(split_shell_words("--comment=\"say \\\"hi\\\"\"") ==
        std::vector<std::string>{"--comment=say \"hi\""});
  CHECK(split_shell_words("''") == std::vector<std::string>{""});
  try {
    split_shell_words("--comment='oops");
    FAIL("no error for an unterminated quote");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("--slurm-args") != std::string::npos);
    CHECK(std::string(e.what()).find("unterminated single quote") != std::string::npos);
  }
}

TEST_CASE("a memory request in --slurm-args replaces the estimate") {
  CHECK(slurm_args_request_memory({"--mem=4G"}));
  CHECK(slurm_args_request_memory({"--partition=x", "--mem", "4G"}));
  CHECK(slurm_args_request_memory({"--mem-per-cpu=1G"}));
  CHECK_FALSE(slurm_args_request_memory({"--mem-bind=local", "--time=5"}));

  ClusterOptions opt;
  opt.kind = ExecutorKind::kSlurm;
  opt.mem_mib = 100;
  opt.slurm_args = {"--partition=long", "--time=5"};
  auto cmd = launcher_command(opt, "/s/d", 3);
  CHECK(cmd.front() == "sbatch");
  CHECK(contains(cmd, "--parsable"));
  CHECK(contains(cmd, "--array=0-2"));
  CHECK(contains(cmd, "--output=/s/d/task-%A_%a.log"));
  CHECK(contains(cmd, "--mem=100M"));
  CHECK(contains(cmd, "--partition=long"));
  CHECK(cmd.back() == "/s/d/tasks.sh");

  opt.slurm_args = {"--mem=2G"};
  cmd = launcher_command(opt, "/s/d", 1);
  CHECK(contains(cmd, "--array=0-0"));
  CHECK(contains(cmd, "--mem=2G"));
  CHECK_FALSE(contains(cmd, "--mem=100M"));
}

TEST_CASE("GNU parallel's command line") {
  ClusterOptions opt;
  opt.kind = ExecutorKind::kParallel;
  opt.sshloginfile = "/h/hosts";
  const auto cmd = launcher_command(opt, "/s/d", 3);
  CHECK(jolt::host::command_line(cmd) ==
        "parallel --will-cite --quote --sshloginfile /h/hosts --joblog /s/d/parallel.joblog sh "
        "/s/d/tasks.sh {} ::: 0 1 2");
}

TEST_CASE("sbatch --parsable's job id") {
  CHECK(parse_sbatch_job_id("123\n") == std::optional<std::string>("123"));
  CHECK(parse_sbatch_job_id("45;clusterA\n") == std::optional<std::string>("45"));
  CHECK_FALSE(parse_sbatch_job_id("sbatch: error: invalid partition specified: x\n").has_value());
  CHECK_FALSE(parse_sbatch_job_id("").has_value());
}

TEST_CASE("the task script runs one task's runs, logs them and records the exit status") {
  TempDir tmp;
  const std::string dir = (tmp.path / "sweep dir").string();  // a space: quoting matters
  fs::create_directories(dir);
  std::vector<SweepTask> tasks(2);
  // Task 0 fails on its first of two runs (the second is not attempted); task 1 runs twice.
  tasks[0] = {"fibonacci", 10, 2, {"/bin/sh", "-c", "echo out-of-0; echo err-of-0 >&2; exit 3"}};
  tasks[1] = {"it's", 11, 2, {"/bin/echo", "it's $HOME `x`"}};
  { std::ofstream(dir + "/tasks.sh") << task_script(tasks, dir); }
  const std::string script = jolt::host::command_line({dir + "/tasks.sh"});

  // As GNU parallel runs it: the id as $1, output into task-ID.log, one line on stdout.
  CHECK(sh("sh " + script + " 0 > " + jolt::host::command_line({dir + "/stdout0"})) == 3);
  const std::string log0 = slurp(dir + "/task-0.log");
  CHECK(log0.find("task 0: fibonacci at 2^10 (2 runs), run 1/2 on ") != std::string::npos);
  CHECK(log0.find("run 2/2") == std::string::npos);
  CHECK(log0.find("out-of-0") != std::string::npos);
  CHECK(log0.find("err-of-0") != std::string::npos);
  const std::string status0 = slurp(dir + "/task-0.status");
  CHECK(status0.rfind("3 ", 0) == 0);
  CHECK(status0.find(" 0\n") != std::string::npos);  // no run done
  CHECK(slurp(dir + "/stdout0").find("task 0: fibonacci at 2^10 (2 runs) on ") !=
        std::string::npos);
  CHECK(slurp(dir + "/stdout0").find(": exit 3") != std::string::npos);

  // As a Slurm array task: the id from SLURM_ARRAY_TASK_ID, output left to Slurm (stdout here).
  CHECK(sh("SLURM_ARRAY_TASK_ID=1 sh " + script + " > " +
           jolt::host::command_line({dir + "/slurm1"})) == 0);
  const std::string out1 = slurp(dir + "/slurm1");
  CHECK(out1.find("task 1: it's at 2^11 (2 runs), run 1/2 on ") != std::string::npos);
  CHECK(out1.find("task 1: it's at 2^11 (2 runs), run 2/2 on ") != std::string::npos);
  const auto first = out1.find("it's $HOME `x`");  // passed verbatim, once per run
  CHECK(first != std::string::npos);
  CHECK(out1.find("it's $HOME `x`", first + 1) != std::string::npos);
  const std::string status1 = slurp(dir + "/task-1.status");
  CHECK(status1.rfind("0 ", 0) == 0);
  CHECK(status1.find(" 2\n") != std::string::npos);  // two runs done
  CHECK_FALSE(fs::exists(dir + "/task-1.log"));

  // No such task; and neither an id nor SLURM_ARRAY_TASK_ID.
  CHECK(sh("sh " + script + " 7 2>/dev/null") == 2);
  CHECK_FALSE(fs::exists(dir + "/task-7.status"));
  CHECK(sh("env -u SLURM_ARRAY_TASK_ID sh " + script + " 2>/dev/null") != 0);
}

TEST_CASE("a task Slurm ended early reads alike whether or not it recorded a status") {
  const std::string cancelled =
      ": the task did not run to its end (Slurm state CANCELLED; see the log)";
  // scancel's SIGTERM ends the command (status 143) and the task shell in either order.
  CHECK(task_failure_reason(std::nullopt, "", "CANCELLED") ==
        "no exit status recorded" + cancelled);
  CHECK(task_failure_reason(143, "node7", "CANCELLED") == "exit status 143 on node7" + cancelled);
  CHECK(
      task_failure_reason(137, "", "OUT_OF_MEMORY") ==
      "exit status 137: the task did not run to its end (Slurm state OUT_OF_MEMORY; see the log)");
  CHECK(task_failure_reason(143, "n", "TIMEOUT (TimeLimit)") ==
        "exit status 143 on n: the task did not run to its end (Slurm state TIMEOUT (TimeLimit); "
        "see the log)");
  // A command that failed on its own stays its exit status, whatever Slurm says of the task.
  CHECK(task_failure_reason(1, "n", "CANCELLED") == "exit status 1 on n");
  CHECK(task_failure_reason(143, "n", "FAILED (NonZeroExitCode)") == "exit status 143 on n");
  CHECK(task_failure_reason(143, "n", "") == "exit status 143 on n");
  // No status and no Slurm state (GNU parallel, or Slurm has forgotten the job).
  CHECK(task_failure_reason(std::nullopt, "", "") ==
        "no exit status recorded: the task did not run to its end (cancelled, out of time or "
        "memory, or its host failed; see the log)");

  for (const char* s : {"CANCELLED", "CANCELLED by 1000", "TIMEOUT", "OUT_OF_MEMORY", "PREEMPTED",
                        "NODE_FAIL", "BOOT_FAIL", "DEADLINE"})
    CHECK(slurm_state_ended_early(s));
  for (const char* s : {"", "COMPLETED", "FAILED", "RUNNING", "PENDING", "CANCELLEDX", "SUSPENDED"})
    CHECK_FALSE(slurm_state_ended_early(s));
}

TEST_CASE("a missing tool is named, with what to do") {
  TempDir tmp;
  ClusterOptions opt;
  {
    PathOverride path(tmp.path.string());
    opt.kind = ExecutorKind::kSlurm;
    auto why = executor_unavailable(opt);
    REQUIRE(why.has_value());
    CHECK(why->find("--executor slurm needs `sbatch` on PATH") != std::string::npos);
    CHECK(why->find("--executor local") != std::string::npos);
    opt.kind = ExecutorKind::kParallel;
    why = executor_unavailable(opt);
    REQUIRE(why.has_value());
    CHECK(why->find("`parallel` on PATH") != std::string::npos);
    opt.kind = ExecutorKind::kLocal;
    CHECK_FALSE(executor_unavailable(opt).has_value());
  }
  // A fake `parallel` on PATH: then the host list is what is missing.
  const fs::path fake = tmp.path / "parallel";
  std::ofstream(fake.string()) << "#!/bin/sh\n";
  fs::permissions(fake, fs::owner_all);
  PathOverride path(tmp.path.string());
  CHECK(find_on_path("parallel") == fake.string());
  opt.kind = ExecutorKind::kParallel;
  auto why = executor_unavailable(opt);
  REQUIRE(why.has_value());
  CHECK(why->find("--sshloginfile") != std::string::npos);
  opt.sshloginfile = (tmp.path / "no-such-hosts").string();
  why = executor_unavailable(opt);
  REQUIRE(why.has_value());
  CHECK(why->find("no-such-hosts: cannot read it") != std::string::npos);
  std::ofstream((tmp.path / "hosts").string()) << ":\n";
  opt.sshloginfile = (tmp.path / "hosts").string();
  CHECK_FALSE(executor_unavailable(opt).has_value());
}
