"""The layer's messages against TensorFlow's own, byte for byte.

For each message below, written once in protobuf text form with the fields
minitf's .proto files keep, both directions are checked:
  - TensorFlow's class encodes it; minitf's (distributed_wire_helper decode)
    reads the bytes back to a text that parses as the same message;
  - minitf's class encodes it (distributed_wire_helper encode); TensorFlow's
    reads the bytes back to the message it made from the text.
Equal messages mean every field kept its number and its wire type. The
worker's RecvTensor answer, which minitf writes and reads by hand around a
tensor's own buffer, is checked the same two ways.

TensorFlow's Python package ships the classes of config.proto, cluster.proto
and the others, but not those of master.proto and worker.proto; their
descriptors are inside libtensorflow_cc.so, compiled in by protoc, and are
read from there: TensorFlow's own description of its messages.

  wire_format.py <path of distributed_wire_helper>
"""
import glob
import os
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402  (imported for its path and its protos)
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf import text_format
# The files master.proto and worker.proto import, loaded into the default
# pool before them.
from google.protobuf import any_pb2  # noqa: F401
from tensorflow.core.framework import (cost_graph_pb2, device_attributes_pb2,  # noqa: F401
                                       graph_pb2, step_stats_pb2, tensor_pb2)
from tensorflow.core.protobuf import (config_pb2, debug_pb2, error_codes_pb2,  # noqa: F401
                                      named_tensor_pb2, tensorflow_server_pb2)

HELPER = sys.argv[1]


def _varint(data, i):
  result = shift = 0
  while True:
    byte = data[i]
    i += 1
    result |= (byte & 0x7F) << shift
    shift += 7
    if byte < 0x80:
      return result, i


def embedded_file_descriptor(library, name):
  """The FileDescriptorProto protoc compiled into `library` for `name`.

  protoc embeds each .proto's descriptor as its serialized bytes, which begin
  with field 1 (the file's name). The message has no length of its own, so
  it is read field by field until a byte that cannot start one of
  FileDescriptorProto's fields.
  """
  encoded = name.encode()
  start = library.find(b"\n" + bytes([len(encoded)]) + encoded)
  if start < 0:
    return None
  i = start
  while True:
    tag, j = _varint(library, i)
    field, wire_type = tag >> 3, tag & 7
    if not 1 <= field <= 14 or wire_type not in (0, 2):
      break
    if wire_type == 2:
      length, j = _varint(library, j)
      j += length
    else:
      _, j = _varint(library, j)
    i = j
  proto = descriptor_pb2.FileDescriptorProto()
  proto.ParseFromString(library[start:i])
  return proto


def tensorflow_classes():
  """TensorFlow's message classes by short name."""
  pool = descriptor_pool.Default()
  libraries = glob.glob(os.path.join(os.path.dirname(tf.__file__),
                                     "libtensorflow_cc.so*"))
  if not libraries:
    print("SKIP: no libtensorflow_cc.so in the TensorFlow package")
    sys.exit(77)
  with open(libraries[0], "rb") as f:
    library = f.read()
  for name in ("tensorflow/core/protobuf/master.proto",
               "tensorflow/core/protobuf/worker.proto"):
    try:
      pool.FindFileByName(name)
    except KeyError:
      proto = embedded_file_descriptor(library, name)
      if proto is None:
        print(f"SKIP: {name} is not in {libraries[0]}")
        sys.exit(77)
      pool.Add(proto)

  def get(name):
    return message_factory.GetMessageClass(
        pool.FindMessageTypeByName("tensorflow." + name))

  return get


TENSOR = """
  dtype: DT_FLOAT
  tensor_shape { dim { size: 2 } dim { size: 2 } }
  tensor_content: "\\000\\000\\200?\\000\\000\\000@\\000\\000@@\\000\\000\\200@"
"""
GRAPH = """
  node {
    name: "a" op: "Const" device: "/job:ps/task:0"
    attr { key: "dtype" value { type: DT_FLOAT } }
    attr { key: "value" value { tensor { %s } } }
  }
  node { name: "c" op: "MatMul" input: "a" input: "a"
         device: "/job:worker/replica:0/task:1/device:CPU:0" }
  versions { producer: 27 }
""" % TENSOR
DEVICE = """
  name: "/job:ps/replica:0/task:0/device:CPU:0" device_type: "CPU"
  memory_limit: 268435456 locality { bus_id: 1 } incarnation: 18446744073709551557
"""
CLUSTER = """
  job { name: "ps" tasks { key: 0 value: "localhost:2222" } }
  job { name: "worker" tasks { key: 1 value: "localhost:2224" } }
"""

MESSAGES = {
    "CreateSessionRequest": """
      graph_def { %s }
      config { device_count { key: "CPU" value: 1 } device_filters: "/job:ps"
               allow_soft_placement: true operation_timeout_in_ms: 5000
               graph_options { rewrite_options { remapping: OFF } }
               cluster_def { %s } }
      target: "grpc://localhost:2222" """ % (GRAPH, CLUSTER),
    "CreateSessionResponse": 'session_handle: "5a1f" graph_version: 3',
    "ExtendSessionRequest": 'session_handle: "5a1f" graph_def { %s } '
                            'current_graph_version: 3' % GRAPH,
    "ExtendSessionResponse": "new_graph_version: 4",
    "RunStepRequest": """
      session_handle: "5a1f" feed { name: "x:0" tensor { %s } }
      fetch: "c:0" target: "train" options { trace_level: FULL_TRACE
      timeout_in_ms: 100 output_partition_graphs: true }
      store_errors_in_response_body: true request_id: -7""" % TENSOR,
    "RunStepResponse": """
      tensor { name: "c:0" tensor { %s } }
      metadata { partition_graphs { %s } }
      status_code: INVALID_ARGUMENT status_error_message: "bad" """ % (TENSOR, GRAPH),
    "CloseSessionRequest": 'session_handle: "5a1f"',
    "ResetRequest": 'container: "c1" device_filters: "/job:ps"',
    "ListDevicesRequest": 'session_handle: "5a1f"',
    "ListDevicesResponse": "local_device { %s } remote_device { %s }" % (
        DEVICE, DEVICE.replace("ps", "worker")),
    "GetStatusResponse": "device_attributes { %s }" % DEVICE,
    "CreateWorkerSessionRequest": """
      session_handle: "5a1f"
      server_def { cluster { %s } job_name: "worker" task_index: 1
                   default_session_config { log_device_placement: true }
                   protocol: "grpc" port: 2224 replica: 0 }
      isolate_session_state: true cluster_device_attributes { %s }""" % (
          CLUSTER, DEVICE),
    "DeleteWorkerSessionRequest": 'session_handle: "5a1f"',
    "RegisterGraphRequest": """
      session_handle: "5a1f" graph_def { %s }
      graph_options { infer_shapes: true } create_worker_session_called: true
      config_proto { inter_op_parallelism_threads: 2
                     gpu_options { allow_growth: true visible_device_list: "0" } }
      """ % GRAPH,
    "RegisterGraphResponse": 'graph_handle: "g1"',
    "DeregisterGraphRequest": 'graph_handle: "g1" session_handle: "5a1f" '
                              "create_worker_session_called: true",
    "RunGraphRequest": """
      graph_handle: "g1" step_id: 81985529216486895
      send { name: "k1" tensor { %s } } recv_key: "k2"
      exec_opts { record_costs: true record_timeline: true record_partition_graphs: true }
      is_partial: true is_last_partial_run: true session_handle: "5a1f"
      store_errors_in_response_body: true create_worker_session_called: true
      request_id: 9""" % TENSOR,
    "RunGraphResponse": """
      recv { name: "k2" tensor { %s } } partition_graph { %s }
      status_code: UNAVAILABLE status_error_message: "gone" """ % (TENSOR, GRAPH),
    "CleanupGraphRequest": "step_id: 81985529216486895",
    "CleanupAllRequest": 'container: "c1" container: "c2"',
    "RecvTensorRequest": """
      step_id: 81985529216486895
      rendezvous_key: "/job:ps/replica:0/task:0/device:CPU:0;0000000000000001;/job:worker/replica:0/task:1/device:CPU:0;edge_1_a;0:0"
      dma_ok: true client_locality { numa_node: 1 } server_locality { bus_id: 2 }
      request_id: 11""",
    "RecvTensorResponse": "tensor { %s } is_dead: true send_start_micros: 1234 "
                          "require_ack: true" % TENSOR,
}


def helper(mode, name, data):
  run = subprocess.run([HELPER, mode, name], input=data, capture_output=True,
                       timeout=60, check=False)
  if run.returncode != 0:
    raise RuntimeError(f"{mode} {name}: {run.stderr.decode()}")
  return run.stdout


def main():
  get = tensorflow_classes()
  failures = 0
  for name, text in MESSAGES.items():
    theirs = text_format.Parse(text, get(name)())
    their_text = text_format.MessageToString(theirs)
    # TensorFlow's bytes, read by minitf.
    ours_read = helper("decode", name, theirs.SerializeToString()).decode()
    # minitf's bytes, read by TensorFlow.
    back = get(name)()
    back.ParseFromString(helper("encode", name, their_text.encode()))
    # Compared as messages, not as strings: C++ prints a map entry's zero key
    # ("key: 0") where Python leaves it out.
    ok = text_format.Parse(ours_read, get(name)()) == theirs and back == theirs
    # Every field of the text was set, so a message that lost one is smaller.
    ok = ok and len(theirs.SerializeToString()) == len(back.SerializeToString())
    print(("ok   " if ok else "FAIL ") + name)
    if not ok:
      failures += 1
      print("TensorFlow's text:\n" + their_text)
      print("minitf read:\n" + ours_read)
      print("TensorFlow read minitf's bytes:\n" + text_format.MessageToString(back))
  # The worker's RecvTensor answers, written and read by hand around the
  # tensor's buffer rather than by protobuf's generated code: a small and a
  # large tensor (sent from its own buffer), and a dead value.
  by_hand = {
      "small tensor": "tensor { %s }" % TENSOR,
      "large tensor": "tensor { dtype: DT_INT32 tensor_shape { dim { size: 3 }"
                      " dim { size: 1001 } } tensor_content: '%s' }" % "".join(
                          "\\%03o" % (i % 251) for i in range(4 * 3003)),
      "dead value": "is_dead: true",
  }
  for label, text in by_hand.items():
    theirs = text_format.Parse(text, get("RecvTensorResponse")())
    back = get("RecvTensorResponse")()
    back.ParseFromString(helper("encode-by-hand", "RecvTensorResponse",
                                text_format.MessageToString(theirs).encode()))
    ours_read = helper("decode-by-hand", "RecvTensorResponse",
                       theirs.SerializeToString()).decode()
    ok = back == theirs and text_format.Parse(
        ours_read, get("RecvTensorResponse")()) == theirs
    print(("ok   " if ok else "FAIL ") + "RecvTensorResponse by hand, " + label)
    failures += 0 if ok else 1
  total = len(MESSAGES) + len(by_hand)
  print(f"{total - failures} of {total} messages alike")
  return 1 if failures else 0


if __name__ == "__main__":
  sys.exit(main())
