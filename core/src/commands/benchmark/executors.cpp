// The cluster executors of `jolt-run benchmark` (see executors.hpp).
#include "commands/benchmark/executors.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <boost/algorithm/string.hpp>
#include <boost/filesystem.hpp>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <jolt/atomic_file.hpp>

#include "jolt/core/run_directory.hpp"
#include "jolt/host/subprocess.hpp"

namespace fs = boost::filesystem;

namespace jolt::core {
namespace {

// Runs argv (no shell of ours: each word quoted) and returns its exit status and its stdout and
// stderr together; -1 when it could not be started.
int capture(const std::vector<std::string>& argv, std::string* out) {
  out->clear();
  FILE* p = ::popen((host::command_line(argv) + " 2>&1").c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), p)) > 0) out->append(buf, n);
  const int st = ::pclose(p);
  return st == -1 ? -1 : (WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string what_of(const SweepTask& t) {
  std::string s = t.workload + " at 2^" + std::to_string(t.scale);
  if (t.runs > 1) s += " (" + std::to_string(t.runs) + " runs)";
  return s;
}

void sleep_seconds(double s) {
  // Sliced so that a Ctrl-C (recorded by forward_interrupts_to_children) is seen within 0.2 s.
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(s);
  while (std::chrono::steady_clock::now() < until && host::pending_interrupt() == 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
}

std::size_t count_status_files(const std::string& sweep_dir, std::size_t n) {
  std::size_t done = 0;
  boost::system::error_code ec;
  for (std::size_t i = 0; i < n; ++i)
    if (fs::exists(fs::path(sweep_dir) / ("task-" + std::to_string(i) + ".status"), ec)) ++done;
  return done;
}

// What Slurm says of an array task that left no exit status ("CANCELLED", "TIMEOUT (...)",
// "OUT_OF_MEMORY"): from scontrol while the controller still holds the job (MinJobAge), else from
// sacct when accounting is kept; empty when neither knows.
std::string slurm_state(const std::string& job_task) {
  std::string out;
  if (capture({"scontrol", "-o", "show", "job", job_task}, &out) == 0) {
    const auto field = [&](const std::string& key) {
      const auto p = out.find(" " + key + "=");
      if (p == std::string::npos) return std::string();
      const auto from = p + key.size() + 2;
      return out.substr(from, out.find_first_of(" \n", from) - from);
    };
    const std::string state = field("JobState"), reason = field("Reason");
    if (!state.empty())
      return state + (reason.empty() || reason == "None" ? "" : " (" + reason + ")");
  }
  if (capture({"sacct", "-n", "-P", "-X", "-j", job_task, "-o", "State"}, &out) == 0) {
    const std::string state = boost::trim_copy(out.substr(0, out.find('\n')));
    if (!state.empty()) return state;
  }
  return {};
}

}  // namespace

std::optional<ExecutorKind> parse_executor(const std::string& name) {
  if (name == "local") return ExecutorKind::kLocal;
  if (name == "slurm") return ExecutorKind::kSlurm;
  if (name == "parallel") return ExecutorKind::kParallel;
  return std::nullopt;
}

const char* executor_name(ExecutorKind kind) {
  switch (kind) {
    case ExecutorKind::kLocal:
      return "local";
    case ExecutorKind::kSlurm:
      return "slurm";
    case ExecutorKind::kParallel:
      return "parallel";
  }
  return "?";
}

std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::vector<std::string> dirs;
  boost::split(dirs, std::string(path ? path : "/usr/bin:/bin"), boost::is_any_of(":"));
  for (const auto& d : dirs) {
    const std::string p = (d.empty() ? std::string(".") : d) + "/" + name;
    struct stat st {};
    if (::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0)
      return p;
  }
  return {};
}

std::optional<std::string> executor_unavailable(const ClusterOptions& opt) {
  const auto need = [](const char* tool, const char* what) -> std::optional<std::string> {
    if (!find_on_path(tool).empty()) return std::nullopt;
    return std::string("--executor ") + what + " needs `" + tool +
           "` on PATH, and it is not there: " +
           (std::string(what) == "slurm"
                ? "run on a Slurm login node, or install Slurm's client commands (Debian: "
                  "slurm-client; scripts/install-deps.sh installs slurm-wlm)"
                : "install GNU parallel (Debian: parallel; scripts/install-deps.sh does)") +
           ", or use --executor local";
  };
  if (opt.kind == ExecutorKind::kSlurm) {
    for (const char* tool : {"sbatch", "squeue", "scancel"})
      if (auto why = need(tool, "slurm")) return why;
  } else if (opt.kind == ExecutorKind::kParallel) {
    if (auto why = need("parallel", "parallel")) return why;
    if (opt.sshloginfile.empty())
      return std::string(
          "--executor parallel needs --sshloginfile FILE: the hosts to run on, one a line (`:` "
          "is this machine), all sharing --out-dir");
    std::ifstream f(opt.sshloginfile);
    if (!f)
      return "--sshloginfile " + opt.sshloginfile +
             ": cannot read it; give a file naming the hosts, one a line (`:` is this machine)";
  }
  return std::nullopt;
}

std::vector<std::string> split_shell_words(const std::string& text) {
  std::vector<std::string> words;
  std::string cur;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote)
        quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < text.size())
        cur += text[++i];
      else
        cur += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < text.size()) {
      cur += text[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(cur);
      cur.clear();
      in_word = false;
    } else {
      cur += c;
      in_word = true;
    }
  }
  if (quote)
    throw std::invalid_argument("--slurm-args '" + text + "': unterminated " +
                                (quote == '"' ? "double" : "single") + " quote");
  if (in_word) words.push_back(cur);
  return words;
}

bool slurm_args_request_memory(const std::vector<std::string>& args) {
  for (const auto& a : args)
    for (const char* opt : {"--mem", "--mem-per-cpu", "--mem-per-gpu"}) {
      const std::string o = opt;
      if (a == o || a.rfind(o + "=", 0) == 0) return true;
    }
  return false;
}

std::string task_script(const std::vector<SweepTask>& tasks, const std::string& sweep_dir) {
  const std::string dir = host::command_line({sweep_dir});
  std::string s =
      "#!/bin/sh\n"
      "# jolt-run benchmark: one task of the sweep planned in tasks.tsv next to this script.\n"
      "# `sh tasks.sh ID` (GNU parallel) or a Slurm array task (ID = SLURM_ARRAY_TASK_ID).\n"
      "dir=" +
      dir +
      "\n"
      "if [ $# -ge 1 ]; then\n"
      "  id=$1\n"
      "  exec 3>&1 >\"$dir/task-$id.log\" 2>&1\n"
      "else\n"
      "  id=${SLURM_ARRAY_TASK_ID:?not a Slurm array task and no task id given}\n"
      "  exec 3>/dev/null\n"
      "fi\n"
      "case \"$id\" in\n";
  for (std::size_t i = 0; i < tasks.size(); ++i)
    s += "  " + std::to_string(i) + ") what=" + host::command_line({what_of(tasks[i])}) +
         "; runs=" + std::to_string(tasks[i].runs) + "; set -- " +
         host::command_line(tasks[i].command) + " ;;\n";
  s +=
      "  *) echo \"tasks.sh: no task $id in this sweep\" >&2; exit 2 ;;\n"
      "esac\n"
      "host=$(hostname 2>/dev/null || echo unknown)\n"
      "rc=0\n"
      "ran=0\n"
      "while [ \"$ran\" -lt \"$runs\" ]; do\n"
      "  echo \"task $id: $what, run $((ran + 1))/$runs on $host\"\n"
      "  \"$@\"\n"
      "  rc=$?\n"
      "  [ \"$rc\" -eq 0 ] || break\n"
      "  ran=$((ran + 1))\n"
      "done\n"
      "echo \"$rc $host $ran\" >\"$dir/.task-$id.status.$$\" && mv -f \"$dir/.task-$id.status.$$\" "
      "\"$dir/task-$id.status\"\n"
      "echo \"  task $id: $what on $host: exit $rc\" >&3\n"
      "exit $rc\n";
  return s;
}

std::vector<std::string> launcher_command(const ClusterOptions& opt, const std::string& sweep_dir,
                                          std::size_t n_tasks) {
  const std::string script = (fs::path(sweep_dir) / "tasks.sh").string();
  if (opt.kind == ExecutorKind::kSlurm) {
    std::vector<std::string> cmd{"sbatch", "--parsable", "--job-name=jolt-sweep",
                                 "--array=0-" + std::to_string(n_tasks ? n_tasks - 1 : 0),
                                 "--output=" + sweep_dir + "/task-%A_%a.log"};
    if (opt.mem_mib && !slurm_args_request_memory(opt.slurm_args))
      cmd.push_back("--mem=" + std::to_string(opt.mem_mib) + "M");
    cmd.insert(cmd.end(), opt.slurm_args.begin(), opt.slurm_args.end());
    cmd.push_back(script);
    return cmd;
  }
  std::vector<std::string> cmd{"parallel",
                               "--will-cite",
                               "--quote",  // the script's path is one word, spaces and all
                               "--sshloginfile",
                               opt.sshloginfile,
                               "--joblog",
                               sweep_dir + "/parallel.joblog",
                               "sh",
                               script,
                               "{}",
                               ":::"};
  for (std::size_t i = 0; i < n_tasks; ++i) cmd.push_back(std::to_string(i));
  return cmd;
}

std::optional<std::string> parse_sbatch_job_id(const std::string& out) {
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    boost::trim(line);
    const std::string id = line.substr(0, line.find(';'));
    if (!id.empty() && std::all_of(id.begin(), id.end(), ::isdigit)) return id;
  }
  return std::nullopt;
}

void print_cluster_plan(const ClusterOptions& opt, const std::vector<SweepTask>& tasks,
                        const std::string& sweep_dir, std::ostream& out) {
  out << "Executor " << executor_name(opt.kind) << ": writes " << sweep_dir
      << "/tasks.sh (one case per task) and runs\n  "
      << host::command_line(launcher_command(opt, sweep_dir, tasks.size())) << "\n";
  if (opt.kind == ExecutorKind::kSlurm) {
    if (opt.mem_mib && !slurm_args_request_memory(opt.slurm_args))
      out << "  (--mem: the pre-flight memory estimate of the largest task)\n";
    out << "  then polls `squeue -h -r -j JOB`; task logs: " << sweep_dir << "/task-JOB_ID.log\n";
  } else {
    out << "  task logs: " << sweep_dir << "/task-ID.log\n";
  }
  out << "Task commands:\n";
  for (std::size_t i = 0; i < tasks.size(); ++i)
    out << "  " << i << ": "
        << (tasks[i].runs > 1 ? std::to_string(tasks[i].runs) + "× (one after the other) " : "")
        << host::command_line(tasks[i].command) << "\n";
}

std::string new_sweep_dir(const std::string& out_dir) {
  return (fs::path(out_dir) / ".sweeps" /
          (utc_timestamp(std::time(nullptr)) + "-" + std::to_string(::getpid())))
      .string();
}

ClusterResult run_cluster_sweep(const ClusterOptions& opt, const std::vector<SweepTask>& tasks) {
  ClusterResult res;
  res.sweep_dir = new_sweep_dir(opt.out_dir);
  const std::string& dir = res.sweep_dir;
  boost::system::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    res.error = "cannot create the sweep folder " + dir + ": " + ec.message();
    return res;
  }
  std::string table = "id\tworkload\tscale\truns\tcommand\n";
  for (std::size_t i = 0; i < tasks.size(); ++i)
    table += std::to_string(i) + "\t" + tasks[i].workload + "\t" + std::to_string(tasks[i].scale) +
             "\t" + std::to_string(tasks[i].runs) + "\t" + host::command_line(tasks[i].command) +
             "\n";
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"tasks.tsv", table},
                                   {"tasks.sh", task_script(tasks, dir)}})
    if (const jolt::Status st = jolt::write_file_atomically(dir + "/" + name, text); !st) {
      res.error = st.message;
      return res;
    }

  const std::vector<std::string> launch = launcher_command(opt, dir, tasks.size());
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  if (opt.kind == ExecutorKind::kSlurm) {
    std::string out;
    const int rc = capture(launch, &out);
    const auto id = rc == 0 ? parse_sbatch_job_id(out) : std::nullopt;
    if (!id) {
      res.error = "sbatch refused the job array (" +
                  (rc < 0 ? std::string("could not run it") : "exit status " + std::to_string(rc)) +
                  "): " + boost::trim_copy(out) + "\n  command: " + host::command_line(launch) +
                  "\n  check --slurm-args (partition, memory, time) against `sinfo`";
      return res;
    }
    res.launched = true;
    res.job_id = *id;
    std::printf("Submitted job array %s: %zu task(s); logs in %s\n", id->c_str(), tasks.size(),
                dir.c_str());
    std::fflush(stdout);
    std::string last;
    for (int squeue_errors = 0;;) {
      if (const int sig = host::pending_interrupt()) {
        res.interrupt_signal = sig;
        std::string ignored;
        capture({"scancel", *id}, &ignored);
        std::fprintf(stderr, "  ⏹ interrupted: cancelled job %s (scancel %s)\n", id->c_str(),
                     id->c_str());
        break;
      }
      std::string q;
      const int qrc = capture({"squeue", "-h", "-r", "-j", *id, "-o", "%K %T"}, &q);
      if (qrc != 0) {
        // A job that has left the controller's memory is reported as an invalid id: it is over.
        if (q.find("Invalid job id") != std::string::npos) break;
        if (++squeue_errors >= 5) {
          res.error = "squeue failed 5 times in a row: " + boost::trim_copy(q);
          break;
        }
      } else {
        squeue_errors = 0;
        std::size_t pending = 0, running = 0, listed = 0;
        std::istringstream in(q);
        for (std::string line; std::getline(in, line);) {
          if (boost::trim_copy(line).empty()) continue;
          ++listed;
          if (line.find("PENDING") != std::string::npos) ++pending;
          if (line.find("RUNNING") != std::string::npos) ++running;
        }
        const std::size_t done = count_status_files(dir, tasks.size());
        const double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
        const std::string eta =
            done ? host::format_duration(elapsed / static_cast<double>(done) *
                                         static_cast<double>(tasks.size() - done))
                 : std::string("unknown");
        const std::string state =
            std::to_string(done) + "/" + std::to_string(pending) + "/" + std::to_string(running);
        if (state != last) {
          std::printf(
              "[%zu/%zu] job %s: %zu running, %zu pending — elapsed %s, estimated time "
              "left %s\n",
              done, tasks.size(), id->c_str(), running, pending,
              host::format_duration(elapsed).c_str(), eta.c_str());
          std::fflush(stdout);
          last = state;
        }
        if (listed == 0) break;
      }
      sleep_seconds(opt.poll_seconds);
    }
  } else {
    std::printf("Running %zu task(s) through GNU parallel (hosts: %s); logs in %s\n", tasks.size(),
                opt.sshloginfile.c_str(), dir.c_str());
    std::fflush(stdout);
    std::vector<std::string> argv = launch;
    argv[0] = find_on_path(argv[0]);  // run_process does not search PATH
    const host::ProcessResult r = host::run_process(argv);
    if (!r.spawned) {
      res.error = "cannot start GNU parallel: " + r.spawn_error;
      return res;
    }
    res.launched = true;
    if (const int sig = interrupt_signal_of(r)) res.interrupt_signal = sig;
    // parallel's exit status counts failed jobs; each task's own status is read below.
    if (r.term_signal != 0 && res.interrupt_signal == 0) res.error = "GNU parallel " + r.describe();
  }

  for (std::size_t i = 0; i < tasks.size(); ++i) {
    TaskOutcome o;
    o.task = &tasks[i];
    if (opt.kind == ExecutorKind::kSlurm) {
      o.job = res.job_id + "_" + std::to_string(i);
      o.log = dir + "/task-" + o.job + ".log";
    } else {
      o.job = "task " + std::to_string(i);
      o.log = dir + "/task-" + std::to_string(i) + ".log";
    }
    std::istringstream st(read_text(dir + "/task-" + std::to_string(i) + ".status"));
    int rc = -1;
    // Every published run of the task printed its `Run:` line into the log (also the runs of a
    // task stopped before it could record its status).
    std::istringstream log(read_text(o.log));
    for (std::string line; std::getline(log, line);) {
      const std::string run_dir = run_dir_from_stdout(line);
      if (run_dir.empty()) continue;
      try {
        o.rows.push_back(read_run_timings(run_dir + "/timings.csv"));
        o.run_names.push_back(fs::path(run_dir).filename().string());
      } catch (const TimingsError& e) {
        o.why = e.what();
      }
    }
    o.runs_done = o.rows.size();
    const std::string which_run = tasks[i].runs > 1 ? "run " + std::to_string(o.runs_done + 1) +
                                                          "/" + std::to_string(tasks[i].runs) + ": "
                                                    : std::string();
    if (!(st >> rc)) {
      o.unfinished = res.interrupt_signal != 0;
      if (o.unfinished) {
        o.why = "not finished (interrupted; rerun with --resume)";
      } else {
        const std::string state =
            opt.kind == ExecutorKind::kSlurm ? slurm_state(o.job) : std::string();
        o.why = which_run + task_failure_reason(std::nullopt, "", state);
      }
    } else {
      st >> o.host;
      const std::string on = o.host.empty() ? "" : " on " + o.host;
      if (rc != 0) {
        // A command ended by a signal: ask Slurm whether it ended the task (scancel, time limit).
        const std::string state =
            opt.kind == ExecutorKind::kSlurm && rc > 128 ? slurm_state(o.job) : std::string();
        o.why = which_run + task_failure_reason(rc, o.host, state);
      } else if (o.runs_done != tasks[i].runs && o.why.empty()) {
        o.why = "its log names " + std::to_string(o.runs_done) + " of " +
                std::to_string(tasks[i].runs) + " run directories (`Run:` lines)" + on;
      } else {
        o.ok = o.why.empty();
      }
    }
    res.outcomes.push_back(std::move(o));
  }
  return res;
}

bool slurm_state_ended_early(const std::string& state) {
  for (const char* s : {"CANCELLED", "TIMEOUT", "OUT_OF_MEMORY", "PREEMPTED", "NODE_FAIL",
                        "BOOT_FAIL", "DEADLINE"}) {
    const std::string name = s;
    if (state.rfind(name, 0) == 0 && (state.size() == name.size() || state[name.size()] == ' '))
      return true;
  }
  return false;
}

std::string task_failure_reason(std::optional<int> rc, const std::string& host,
                                const std::string& slurm_state) {
  const std::string did_not_end = ": the task did not run to its end (";
  if (!rc)
    return "no exit status recorded" + did_not_end +
           (slurm_state.empty() ? "cancelled, out of time or memory, or its host failed"
                                : "Slurm state " + slurm_state) +
           "; see the log)";
  const std::string status =
      "exit status " + std::to_string(*rc) + (host.empty() ? "" : " on " + host);
  if (*rc > 128 && slurm_state_ended_early(slurm_state))
    return status + did_not_end + "Slurm state " + slurm_state + "; see the log)";
  return status;
}

}  // namespace jolt::core
