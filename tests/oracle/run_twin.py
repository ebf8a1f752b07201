"""Runs a twin (twins/*.py) as a script, as minitf's programs run under
MINITF_DUMP_GRAPHDEF: every tf.Session writes its graph, as a binary
GraphDef, to <folder>/session_<k>.pb (k counting the sessions from 0) before
each run that finds the graph grown since its last write.
   python run_twin.py <folder> <twin.py> [args...]

Also makes the C library's stdout unbuffered, as Python's is under
PYTHONUNBUFFERED: TensorFlow's placer prints the placement log with printf,
and the log must come out between the lines Python prints around it.
"""
import ctypes
import itertools
import os
import runpy
import sys

folder, twin = sys.argv[1], sys.argv[2]
sys.argv = sys.argv[2:]
sys.path.insert(0, os.path.dirname(os.path.abspath(twin)))

libc = ctypes.CDLL(None)
libc.setvbuf(ctypes.c_void_p.in_dll(libc, "stdout"), None, 2, 0)  # _IONBF

from tensorflow.python.client import session as session_lib  # noqa: E402

numbers = itertools.count()
base_init = session_lib.BaseSession.__init__
base_run = session_lib.BaseSession.run


def init(self, *args, **kwargs):
    base_init(self, *args, **kwargs)
    self._oracle_path = os.path.join(folder, "session_%d.pb" % next(numbers))
    self._oracle_version = -1


def run(self, *args, **kwargs):
    # graph.version grows with every op added.
    if self.graph.version != self._oracle_version:
        self._oracle_version = self.graph.version
        with open(self._oracle_path, "wb") as f:
            f.write(self.graph.as_graph_def().SerializeToString())
    return base_run(self, *args, **kwargs)


session_lib.BaseSession.__init__ = init
session_lib.BaseSession.run = run
runpy.run_path(twin, run_name="__main__")
