"""A throwaway single-node Slurm cluster for the executor tests: munged with its own key, socket
and pid file, slurmctld and slurmd with a generated slurm.conf, all under one temporary folder,
on ports of our choosing; stopped (and the folder left for the caller to remove) by stop().

    cluster = SlurmCluster(tmp)      # writes the key and the configuration
    why = cluster.start()            # None, or why the daemons could not start
    env = cluster.env()              # SLURM_CONF for sbatch/squeue/scancel
    ...
    cluster.stop()

Needs Debian's slurm-wlm and munge (scripts/install-deps.sh) and root (slurmd runs jobs as the
submitting user and must be able to switch to it)."""

import os
import shutil
import signal
import socket
import subprocess
import time

SBIN = ["/usr/sbin", "/usr/bin", "/sbin", "/bin"]


def _which(name):
    path = shutil.which(name)
    if path:
        return path
    for d in SBIN:
        p = os.path.join(d, name)
        if os.access(p, os.X_OK):
            return p
    return None


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SlurmCluster:
    def __init__(self, root):
        self.root = os.path.abspath(root)
        self.node = socket.gethostname().split(".")[0]
        self.procs = []
        self.conf = os.path.join(self.root, "slurm.conf")
        self.munge_socket = os.path.join(self.root, "munge", "munge.socket")

    def missing(self):
        """Why this machine cannot run the cluster, or None."""
        for tool in ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol"):
            if not _which(tool):
                return (f"{tool} not found: install Debian's slurm-wlm and munge "
                        "(scripts/install-deps.sh)")
        if os.geteuid() != 0:
            return "not root: slurmd must run as root to start jobs as the submitting user"
        return None

    def env(self):
        env = dict(os.environ)
        env["SLURM_CONF"] = self.conf
        return env

    def _write_config(self):
        munge = os.path.join(self.root, "munge")
        spool = os.path.join(self.root, "spool")
        for d in (munge, spool, os.path.join(spool, "ctld"), os.path.join(spool, "d"),
                  os.path.join(self.root, "log")):
            os.makedirs(d, mode=0o700, exist_ok=True)
        with open(os.path.join(munge, "munge.key"), "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(os.path.join(munge, "munge.key"), 0o400)
        cpus = os.cpu_count() or 1
        mem_mib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1 << 20)
        user = "root" if os.geteuid() == 0 else os.environ.get("USER", "root")
        self.ctld_port, self.d_port = _free_port(), _free_port()
        log = os.path.join(self.root, "log")
        conf = f"""ClusterName=joltrun-test
SlurmctldHost={self.node}(127.0.0.1)
SlurmctldPort={self.ctld_port}
SlurmdPort={self.d_port}
SlurmUser={user}
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={self.munge_socket}
StateSaveLocation={spool}/ctld
SlurmdSpoolDir={spool}/d
SlurmctldPidFile={self.root}/slurmctld.pid
SlurmdPidFile={self.root}/slurmd.pid
SlurmctldLogFile={log}/slurmctld.log
SlurmdLogFile={log}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
Waittime=0
NodeName={self.node} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={mem_mib} State=UNKNOWN
PartitionName=debug Nodes={self.node} Default=YES MaxTime=INFINITE State=UP
"""
        with open(self.conf, "w") as f:
            f.write(conf)
        # slurmd reads cgroup.conf only with cgroup plugins; an empty one keeps it quiet.
        open(os.path.join(self.root, "cgroup.conf"), "w").close()

    def _spawn(self, args, name):
        out = open(os.path.join(self.root, "log", name + ".stdout"), "w")
        p = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=self.env(),
                             start_new_session=True)
        self.procs.append((name, p))
        return p

    def _log_tail(self, name):
        for path in (os.path.join(self.root, "log", name + ".log"),
                     os.path.join(self.root, "log", name + ".stdout")):
            try:
                with open(path) as f:
                    lines = f.read().splitlines()[-5:]
                if lines:
                    return " | ".join(lines)
            except OSError:
                pass
        return "(no log)"

    def start(self, timeout=30):
        """Starts munged, slurmctld and slurmd; None when the node is idle, else why not."""
        why = self.missing()
        if why:
            return why
        self._write_config()
        munge = os.path.join(self.root, "munge")
        # -F: foreground (we own the process); --force: the key folder is ours, not /etc/munge.
        self._spawn([_which("munged"), "-F", "--force", "--key-file", os.path.join(munge, "munge.key"),
                     "--socket", self.munge_socket, "--pid-file", os.path.join(munge, "munged.pid"),
                     "--log-file", os.path.join(self.root, "log", "munged.log"),
                     "--seed-file", os.path.join(munge, "munged.seed")], "munged")
        deadline = time.monotonic() + timeout
        while not os.path.exists(self.munge_socket):
            if time.monotonic() > deadline or self.procs[-1][1].poll() is not None:
                return "munged did not start: " + self._log_tail("munged")
            time.sleep(0.1)
        self._spawn([_which("slurmctld"), "-D", "-i", "-f", self.conf], "slurmctld")
        self._spawn([_which("slurmd"), "-D", "-f", self.conf, "-N", self.node], "slurmd")
        scontrol = _which("scontrol")
        while True:
            for name, p in self.procs:
                if p.poll() is not None:
                    return f"{name} exited with {p.returncode}: " + self._log_tail(name)
            r = subprocess.run([_which("sinfo"), "-h", "-N", "-o", "%T"], env=self.env(),
                               capture_output=True, text=True)
            state = r.stdout.strip()
            if r.returncode == 0 and state.startswith("idle"):
                return None
            if time.monotonic() > deadline:
                return (f"the node {self.node} is not idle after {timeout}s (sinfo: "
                        f"{state or r.stderr.strip()}); slurmctld: {self._log_tail('slurmctld')}; "
                        f"slurmd: {self._log_tail('slurmd')}")
            if state.startswith(("down", "drain")):
                subprocess.run([scontrol, "update", f"NodeName={self.node}", "State=RESUME"],
                               env=self.env(), capture_output=True)
            time.sleep(0.3)

    def stop(self):
        for name, p in reversed(self.procs):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
                try:
                    p.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
        self.procs = []
