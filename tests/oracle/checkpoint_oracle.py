"""TensorFlow's own files both ways: checkpoints, meta graphs and events.

   checkpoint_oracle.py <seed_single_machine> <checkpoint_oracle_helper>
   (run by checkpoint_oracle.sh, under the peers' python)

Checks, each printed as "ok: ..." or "FAIL: ...":

  minitf -> TensorFlow  seed 003's program trains in minitf and saves;
      tf.train.load_checkpoint lists the same variables, with the same dtypes,
      shapes and bytes, as minitf's reader; TensorFlow imports the .meta,
      restores, and evaluates the test set to the accuracy minitf prints for
      the same files (to the printed digit); TensorFlow's twin continues from
      minitf's checkpoint as minitf's program does (within the oracle's
      SOFTMAX tolerance: 1000 more steps in two engines);
  TensorFlow -> minitf  the twin trains and saves; minitf reads every
      variable bit for bit, imports TensorFlow's .meta and evaluates it to
      TensorFlow's accuracy, and continues as TensorFlow continues;
  shards              a TensorFlow Saver(sharded=True) over variables on
      three devices writes three data files; minitf reads them all;
  events              TensorBoard's EventAccumulator (when tensorboard is
      installed beside TensorFlow) loads minitf's event file and finds the
      scalar, the histogram and the graph.

Exit status 0 when all pass, 1 otherwise, 77 (CTest's skip) when the data
seed 003 needs is missing.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "twins"))
import input_data  # noqa: E402
import numpy  # noqa: E402
import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_v2_behavior()
SKIP = 77
SOFTMAX_ABS = 0.003  # oracle.py's SOFTMAX tolerance, and why, apply here
TWIN_ENV = dict(os.environ, PYTHONUNBUFFERED="1", CUDA_VISIBLE_DEVICES="")
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what, flush=True)
    if not ok:
        failures.append(what)


def run(args):
    """Runs a program; returns its output, printed when it fails."""
    p = subprocess.run(args, capture_output=True, text=True, env=TWIN_ENV)
    if p.returncode != 0:
        print(f"$ {' '.join(args)}\n{p.stdout}{p.stderr}")
        raise SystemExit(1)
    return p.stdout


def accuracy_line(output):
    return re.search(r"Test accuracy after (\d+) steps: ([0-9.]+)", output)


def minitf_dump(helper, prefix):
    """{name: (dtype, shape, bytes)} as minitf's reader sees them."""
    out = {}
    for line in run([helper, "dump", prefix]).splitlines():
        name, dtype, shape, data = line.split(" ")
        out[name] = (dtype, shape, bytes.fromhex(data))
    return out


def tf_dump(prefix):
    reader = tf.train.load_checkpoint(prefix)
    out = {}
    for name, shape in reader.get_variable_to_shape_map().items():
        value = numpy.asarray(reader.get_tensor(name))
        dtype = reader.get_variable_to_dtype_map()[name].name
        dtype = {"float32": "float", "float64": "double"}.get(dtype, dtype)
        out[name] = (dtype, "[" + ",".join(map(str, shape)) + "]",
                     value.tobytes())
    return out


def tf_evaluate(meta, prefix):
    """import_meta_graph + restore + seed 003's accuracy, as %.4f."""
    mnist = input_data.read_data_sets(input_data.default_data_dir(), one_hot=True)
    with tf.Graph().as_default() as g, tf.Session() as sess:
        saver = tf.train.import_meta_graph(meta)
        saver.restore(sess, prefix)
        x = g.get_tensor_by_name("Placeholder:0")
        y_ = g.get_tensor_by_name("Placeholder_1:0")
        y = g.get_tensor_by_name("Softmax:0")
        correct = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
        accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
        acc = sess.run(accuracy, {x: mnist.test.images, y_: mnist.test.labels})
        return "accuracy %.4f" % acc


def same_files(what, minitf, tensorflow):
    check(sorted(minitf) == sorted(tensorflow),
          f"{what}: the same variables ({sorted(minitf)} and {sorted(tensorflow)})")
    for name in sorted(set(minitf) & set(tensorflow)):
        check(minitf[name] == tensorflow[name],
              f"{what}: {name} {minitf[name][0]} {minitf[name][1]} bit-identical")


def continues(what, seed, twin, folder, work):
    """minitf's program and TensorFlow's twin each continue from a copy."""
    for who in ("minitf", "tf"):
        shutil.copytree(folder, os.path.join(work, who))
    got_m = run([seed, os.path.join(work, "minitf")])
    got_t = run([sys.executable, twin, os.path.join(work, "tf")])
    restored_m = re.search(r"at step (\d+)", got_m)
    restored_t = re.search(r"at step (\d+)", got_t)
    check(restored_m and restored_t and restored_m[1] == restored_t[1],
          f"{what}: both restore at step {restored_m and restored_m[1]}")
    m, t = accuracy_line(got_m), accuracy_line(got_t)
    check(m[1] == t[1] and abs(float(m[2]) - float(t[2])) <= SOFTMAX_ABS,
          f"{what}: after {m[1]} steps minitf's accuracy {m[2]}, TensorFlow's "
          f"{t[2]} (within {SOFTMAX_ABS})")


def both_ways(whose, saver_program, seed, twin, helper, work):
    """`saver_program` trains and saves; each engine reads what it wrote."""
    folder = os.path.join(work, whose.replace("'", ""))
    run(saver_program + [folder])
    prefix = tf.train.latest_checkpoint(folder)
    check(prefix is not None, f"TensorFlow finds {whose} checkpoint {prefix}")
    same_files(f"{whose} checkpoint", minitf_dump(helper, prefix),
               tf_dump(prefix))
    m_acc = run([helper, "evaluate", prefix + ".meta", prefix]).strip()
    t_acc = tf_evaluate(prefix + ".meta", prefix)
    check(m_acc == t_acc,
          f"{whose} meta graph: TensorFlow's {t_acc}, minitf's {m_acc}")
    continues(f"from {whose} checkpoint", seed, twin, folder,
              os.path.join(work, "from_" + whose.replace("'", "")))


def main():
    seed, helper = sys.argv[1], sys.argv[2]
    twin = os.path.join(HERE, "twins", "seed_single_machine.py")
    data = input_data.default_data_dir()
    if not os.path.exists(os.path.join(data, "train-images-idx3-ubyte.gz")):
        print(f"SKIP: no MNIST-format data in {data}")
        return SKIP
    work = tempfile.mkdtemp(prefix="checkpoint_oracle_")
    try:
        # minitf -> TensorFlow, then TensorFlow -> minitf.
        both_ways("minitf's", [seed], seed, twin, helper, work)
        both_ways("TensorFlow's", [sys.executable, twin], seed, twin, helper,
                  work)

        # A sharded checkpoint: one data file per device.
        s_prefix = os.path.join(work, "sharded", "model.ckpt")
        os.makedirs(os.path.dirname(s_prefix))
        with tf.Graph().as_default():
            for i, (dtype, value) in enumerate(
                    [(tf.float32, numpy.arange(12.0).reshape(3, 4) / 7),
                     (tf.int64, [2**40, -3]), (tf.float64, [[0.1]])]):
                with tf.device(f"/cpu:{i}"):
                    tf.Variable(value, dtype=dtype, name=f"part_{i}")
            saver = tf.train.Saver(sharded=True)
            config = tf.ConfigProto(device_count={"CPU": 3})
            with tf.Session(config=config) as sess:
                sess.run(tf.global_variables_initializer())
                saver.save(sess, s_prefix)
        shards = [f for f in os.listdir(os.path.dirname(s_prefix)) if ".data-" in f]
        check(len(shards) == 3, f"TensorFlow wrote {len(shards)} data files")
        same_files("TensorFlow's sharded checkpoint",
                   minitf_dump(helper, s_prefix), tf_dump(s_prefix))

        # TensorBoard reads minitf's events.
        try:
            from tensorboard.backend.event_processing import event_accumulator
        except ImportError:
            print("skipped: the events check (tensorboard is not installed "
                  "beside TensorFlow; scripts/peers.sh installs it)")
        else:
            e_dir = os.path.join(work, "events")
            run([helper, "events", e_dir])
            acc = event_accumulator.EventAccumulator(
                e_dir, size_guidance={"scalars": 0, "histograms": 0})
            acc.Reload()
            tags = acc.Tags()
            check("loss" in tags["scalars"], f"TensorBoard finds scalar 'loss' in {tags['scalars']}")
            check("weights" in tags["histograms"],
                  f"TensorBoard finds histogram 'weights' in {tags['histograms']}")
            check(tags["graph"], "TensorBoard finds the graph")
            if "loss" in tags["scalars"]:
                got = [(e.step, e.value) for e in acc.Scalars("loss")]
                check(got == [(1, 1.5), (2, 0.75), (3, 0.375)],
                      f"the scalar's steps and values {got}")
            if tags["graph"]:
                names = {n.name for n in acc.Graph().node}
                check("w" in names, "the graph has the variable 'w'")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{len(failures)} failed" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
