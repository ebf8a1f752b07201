#!/usr/bin/env python3
"""Tests of tools/layer_check.py on small trees of its own: an include of a
layer that CMake does not link fails, naming the file, the include and the
layer; includes of linked layers, of layers reached through them, of the
course so far (minitf_<layer> in DEPS) and within a layer pass; a part of a
layer with a library of its own may include only what that library links.

  python3 tests/tools/test_layer_check.py
"""

import io
import sys
import tempfile
import unittest
from contextlib import redirect_stdout
from pathlib import Path

sys.dont_write_bytecode = True
REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

import layer_check  # noqa: E402  (found through the path set just above)

COURSE = """set(MINITF_CHAPTERS
  "01-tensors:tensor"
  "02-graph-and-session:graph"
  "03-variables-and-autodiff:train"
  "04-device-placement:device"
  "05-gpu-kernels:gpu"
)
"""


class TreeTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.root = Path(self._tmp.name)
        self.write("cmake/Course.cmake", COURSE)
        self.layer("tensor", "DEPS Eigen3::Eigen")
        self.layer("graph", "LAYERS tensor")
        self.layer("train", "LAYERS graph")
        # Like the real device layer: graph only, and no train.
        self.layer("device", "LAYERS graph\n  DEPS Threads::Threads")
        self.write("src/minitf/tensor/tensor.h", "#pragma once\n")
        self.write("src/minitf/graph/graph.h",
                   '#pragma once\n#include "minitf/tensor/tensor.h"\n')
        self.write("src/minitf/train/var.h",
                   '#pragma once\n#include "minitf/graph/graph.h"\n')
        self.write("src/minitf/device/devices/device.h",
                   "#pragma once\n"
                   "#include \"minitf/graph/graph.h\"\n"
                   "#include <minitf/tensor/tensor.h>  // reached through graph\n")
        self.write("src/minitf/device/devices/device.cc",
                   '#include "minitf/device/devices/device.h"\n\nint x = 0;\n')

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, relative, text):
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def layer(self, name, links):
        self.write(f"src/minitf/{name}/CMakeLists.txt",
                   f"# Layer {name}.\nfile(GLOB layer_sources \"*.cc\")\n"
                   f"minitf_layer({name}\n  SOURCES ${{layer_sources}}\n  {links})\n")

    def run_main(self, *args):
        out = io.StringIO()
        with redirect_stdout(out):
            status = layer_check.main(["--root", str(self.root), *args])
        return status, out.getvalue()


class CleanTreeTest(TreeTest):
    def test_a_tree_that_includes_what_it_links_passes(self):
        status, out = self.run_main()
        self.assertEqual(status, 0, out)
        self.assertIn("each of a layer its CMake links", out)

    def test_the_graph_names_what_each_layer_links(self):
        status, out = self.run_main("--graph")
        self.assertEqual(status, 0, out)
        self.assertIn("device: links graph\n", out)
        self.assertIn("tensor: links nothing of the course\n", out)

    def test_the_course_so_far_allows_every_earlier_layer(self):
        self.layer("gpu", "DEPS minitf_device")
        self.write("src/minitf/gpu/kernels.cc", '#include "minitf/train/var.h"\n')
        status, out = self.run_main()
        self.assertEqual(status, 0, out)


class PlantedIncludeTest(TreeTest):
    def test_an_include_of_an_unlinked_layer_fails_naming_file_include_and_layer(self):
        self.write("src/minitf/device/placement/placer.cc",
                   '#include "minitf/device/devices/device.h"\n'
                   '#include "minitf/train/var.h"\n')
        status, out = self.run_main()
        self.assertEqual(status, 1, out)
        self.assertIn("src/minitf/device/placement/placer.cc:2: includes minitf/train/var.h "
                      "of layer train; layer device links tensor, graph "
                      "(src/minitf/device/CMakeLists.txt), not train", out)
        self.assertIn("layer_check: 1 finding(s)", out)

    def test_an_upward_include_fails(self):
        self.write("src/minitf/graph/session.h", '#include "minitf/device/devices/device.h"\n')
        status, out = self.run_main()
        self.assertEqual(status, 1, out)
        self.assertIn("src/minitf/graph/session.h:1: includes minitf/device/devices/device.h "
                      "of layer device; layer graph links tensor", out)

    def test_an_engine_file_that_names_an_exercise_fails(self):
        self.write("src/minitf/graph/kernel.cc",
                   '#include "minitf/graph/graph.h"\n'
                   '#include "exercises/01-tensors/03_stable_softmax/piece.h"\n')
        status, out = self.run_main()
        self.assertEqual(status, 1, out)
        self.assertIn("src/minitf/graph/kernel.cc:2: names the course's exercises",
                      out)

    def test_a_generated_header_belongs_to_its_layers_folder(self):
        self.write("src/minitf/device/proto_user.cc",
                   '#include "minitf/train/proto/event.pb.h"\n')
        status, out = self.run_main()
        self.assertEqual(status, 1, out)
        self.assertIn("includes minitf/train/proto/event.pb.h of layer train", out)

    def test_a_part_with_its_own_library_includes_only_what_that_links(self):
        self.layer("gpu", "LAYERS device train\n  DEPS minitf_cuda_emulator")
        self.write("src/minitf/gpu/emulator/CMakeLists.txt",
                   "add_library(minitf_cuda_emulator STATIC runtime.cc)\n"
                   "target_link_libraries(minitf_cuda_emulator PUBLIC Threads::Threads)\n")
        self.write("src/minitf/gpu/emulator/cuda.h", "#pragma once\n")
        self.write("src/minitf/gpu/kernels.cc", '#include "minitf/gpu/emulator/cuda.h"\n')
        status, out = self.run_main()
        self.assertEqual(status, 0, out)
        self.write("src/minitf/gpu/emulator/runtime.cc",
                   '#include "minitf/gpu/emulator/cuda.h"\n'
                   '#include "minitf/tensor/tensor.h"\n')
        status, out = self.run_main()
        self.assertEqual(status, 1, out)
        self.assertIn("src/minitf/gpu/emulator/runtime.cc:2: includes "
                      "minitf/tensor/tensor.h of layer tensor; minitf_cuda_emulator "
                      "(part of layer gpu) links no other layer", out)


if __name__ == "__main__":
    unittest.main()
