"""Many files at once (`read` and `audit --jobs N`): one per-file function run in a process
pool, results handed back in the order of the inputs. A bad file is an outcome, not an end."""

from __future__ import annotations

import importlib
import multiprocessing
import os
import sys

from rnwprint.core.errors import RnwError


def cores() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


JOBS_PER_CORE = 4


class Failure:
    """An unexpected error in one file, as text (not every exception survives pickling)."""

    def __init__(self, reason: str):
        self.reason = reason


def _call(job):
    func, item = job
    try:
        return func(item)
    except RnwError as e:  # returned, not raised: the batch goes on
        return e
    except Exception as e:  # noqa: BLE001 -- no file may stop a batch
        return Failure(" ".join(f"{type(e).__name__}: {e}".split())[:200])


ONE_THREAD = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
#: imported once, before the workers are forked: each worker starts with them loaded instead
#: of importing them again (a third of a second of CPU each)
PRELOAD = ("rnwprint.photo.pipeline",)


def _one_thread() -> None:
    # each worker is one core's share: OpenCV's and BLAS's own threads would fight the pool
    for var in ONE_THREAD:
        os.environ[var] = "1"
    try:
        import cv2
    except ImportError:
        return
    cv2.setNumThreads(1)


def die_with_parent() -> None:
    """A worker's first step: end when the process that started it ends (Linux). A `kill` of
    the command ends it by the signal's default action, which shuts down no pool; a worker
    blocked writing a result nobody reads would wait for ever."""
    if sys.platform != "linux":
        return
    import ctypes
    import signal

    parent = os.getppid()
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # it ended before the line above
        os._exit(1)


def _worker_start() -> None:
    die_with_parent()
    _one_thread()


class Ordered:
    """(item, outcome) for each item in input order, where the outcome is func(item), the
    RnwError it raised, or a Failure. With one item or jobs=1 there is no pool at all.
    func must be picklable (a module-level function or a functools.partial of one)."""

    def __init__(self, func, items, jobs: int):
        self.func, self.items, self.jobs = func, list(items), jobs

    def __len__(self) -> int:
        return len(self.items)

    def workers(self) -> int:
        """How many processes read at once: as asked, but no more than the items nor
        JOBS_PER_CORE a core (each loads OpenCV and the networks: --jobs 1000 would fill the
        memory, not finish sooner)."""
        return min(self.jobs, len(self.items), JOBS_PER_CORE * cores())

    def __iter__(self):
        jobs = self.workers()
        if jobs <= 1:
            for item in self.items:
                yield item, _call((self.func, item))
            return
        for var in ONE_THREAD:  # before numpy is loaded: BLAS then starts one thread only
            os.environ[var] = "1"
        context = _context([getattr(self.func, "func", self.func).__module__, *PRELOAD])
        with context.Pool(jobs, initializer=_worker_start) as pool:
            outcomes = pool.imap(_call, [(self.func, item) for item in self.items])
            yield from zip(self.items, outcomes)


def _context(preload: list[str]):
    """How the workers start. Forked from this process, which imports `preload` first, when
    it runs one thread and has not loaded OpenCV yet (a command line's process): they start
    with it all loaded, at no cost but the fork. A forked copy of a process whose other
    threads (OpenCV's among them) ran can hang, so any other process (a test, a notebook, a
    server) starts a fork server instead, which imports `preload` itself and forks the
    workers from there."""
    import threading

    alone = threading.active_count() == 1 and "cv2" not in sys.modules
    if alone and sys.platform == "linux":  # fork elsewhere is unsafe with system libraries
        for module in preload:
            try:
                importlib.import_module(module)
            except ImportError:  # the photo reader not installed: typed-in files only
                pass
        _one_thread()  # before OpenCV's first call here: it starts no threads then
        return multiprocessing.get_context("fork")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(preload)
    return context
