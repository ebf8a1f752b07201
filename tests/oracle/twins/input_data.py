# TF 1.x's tensorflow.examples.tutorials.mnist.input_data, which TF 2 no
# longer has, for the twins of seeds 002 and 003: read_data_sets reads the
# four IDX files (.gz) and DataSet.next_batch hands out batches, step for step
# as TF 1.x's DataSet does (contrib/learn/python/learn/datasets/mnist.py).
#
# One change: TF shuffles with NumPy's generator, seeded afresh each run;
# here the permutations are minitf's (src/minitf/train/data/mnist.cc):
# Fisher-Yates from the last element down over std::mt19937_64 seeded with
# minitf's default seed, each index drawn by rejection. So the twin trains on
# the same batches, in the same order, as the C++ program, and what the oracle
# compares is the engines, not their random numbers.
import gzip
import os

import numpy

DEFAULT_SEED = 0x6D6E697374  # minitf's kDefaultSeed, "mnist"
NUM_CLASSES = 10


class MT19937_64:
    """C++'s std::mt19937_64, 312 numbers at a time with NumPy."""

    N, M = 312, 156
    MATRIX_A = numpy.uint64(0xB5026F5AA96619E9)
    UPPER = numpy.uint64(0xFFFFFFFF80000000)
    LOWER = numpy.uint64(0x7FFFFFFF)

    def __init__(self, seed):
        mt = [seed & (2**64 - 1)]
        for i in range(1, self.N):
            prev = mt[-1]
            mt.append((6364136223846793005 * (prev ^ (prev >> 62)) + i) & (2**64 - 1))
        self.mt = numpy.array(mt, dtype=numpy.uint64)
        self.out = numpy.empty(0, dtype=numpy.uint64)  # drawn, not yet used

    def _mix(self, hi, lo, far):
        x = (hi & self.UPPER) | (lo & self.LOWER)
        return far ^ (x >> numpy.uint64(1)) ^ ((x & numpy.uint64(1)) * self.MATRIX_A)

    def _twist(self):
        mt, n, m = self.mt, self.N, self.M
        # The three stretches of C++'s in-place update, in its order: each
        # reads only values that are final by then.
        mt[: n - m] = self._mix(mt[: n - m], mt[1 : n - m + 1], mt[m:])
        mt[n - m : n - 1] = self._mix(mt[n - m : n - 1], mt[n - m + 1 :], mt[: m - 1])
        mt[n - 1 :] = self._mix(mt[n - 1 :], mt[:1], mt[m - 1 : m])
        y = mt.copy()
        y ^= (y >> numpy.uint64(29)) & numpy.uint64(0x5555555555555555)
        y ^= (y << numpy.uint64(17)) & numpy.uint64(0x71D67FFFEDA60000)
        y ^= (y << numpy.uint64(37)) & numpy.uint64(0xFFF7EEE000000000)
        y ^= y >> numpy.uint64(43)
        return y

    def peek(self, k):
        """The next k numbers, without using them up."""
        while len(self.out) < k:
            self.out = numpy.concatenate((self.out, self._twist()))
        return self.out[:k]

    def take(self, k):
        self.out = self.out[k:]

    def permutation(self, n):
        """minitf's DataSet::Shuffle: Fisher-Yates from the last element down,
        index i swapped with a uniform draw from [0, i] (UniformUpTo:
        rejection of the draws below 2^64 mod (i + 1), then the remainder)."""
        spans = numpy.arange(n, 1, -1, dtype=numpy.uint64)  # i + 1 for i = n-1 .. 1
        js = []
        while len(js) < n - 1:
            s = spans[len(js) :]
            r = self.peek(len(s))
            rejected = numpy.flatnonzero(r < (numpy.uint64(0) - s) % s)
            used = rejected[0] if len(rejected) else len(s)
            js.extend((r[:used] % s[:used]).tolist())
            self.take(used + (1 if len(rejected) else 0))
        perm = list(range(n))
        for i, j in zip(range(n - 1, 0, -1), js):
            perm[i], perm[j] = perm[j], perm[i]
        return numpy.array(perm)


def _read_idx(path, magic):
    with gzip.open(path, "rb") as f:
        data = f.read()
    assert int.from_bytes(data[:4], "big") == magic, path
    ndim = magic & 0xFF
    dims = [int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(ndim)]
    return numpy.frombuffer(data, numpy.uint8, offset=4 + 4 * ndim).reshape(dims)


def dense_to_one_hot(labels_dense, num_classes):
    labels_one_hot = numpy.zeros((labels_dense.shape[0], num_classes))
    labels_one_hot[numpy.arange(labels_dense.shape[0]), labels_dense] = 1
    return labels_one_hot


class DataSet:
    def __init__(self, images, labels, seed):
        self._num_examples = images.shape[0]
        images = images.reshape(images.shape[0], images.shape[1] * images.shape[2])
        images = images.astype(numpy.float32)
        self._images = numpy.multiply(images, numpy.float32(1.0 / 255.0))
        self._labels = labels
        self._epochs_completed = 0
        self._index_in_epoch = 0
        self._rng = MT19937_64(seed)

    @property
    def images(self):
        return self._images

    @property
    def labels(self):
        return self._labels

    @property
    def num_examples(self):
        return self._num_examples

    def next_batch(self, batch_size, shuffle=True):
        start = self._index_in_epoch
        # Shuffle for the first epoch
        if self._epochs_completed == 0 and start == 0 and shuffle:
            perm0 = self._rng.permutation(self._num_examples)
            self._images = self.images[perm0]
            self._labels = self.labels[perm0]
        # Go to the next epoch
        if start + batch_size > self._num_examples:
            # Finished epoch
            self._epochs_completed += 1
            # Get the rest examples in this epoch
            rest_num_examples = self._num_examples - start
            images_rest_part = self._images[start : self._num_examples]
            labels_rest_part = self._labels[start : self._num_examples]
            # Shuffle the data
            if shuffle:
                perm = self._rng.permutation(self._num_examples)
                self._images = self.images[perm]
                self._labels = self.labels[perm]
            # Start next epoch
            start = 0
            self._index_in_epoch = batch_size - rest_num_examples
            end = self._index_in_epoch
            images_new_part = self._images[start:end]
            labels_new_part = self._labels[start:end]
            return (numpy.concatenate((images_rest_part, images_new_part), axis=0),
                    numpy.concatenate((labels_rest_part, labels_new_part), axis=0))
        self._index_in_epoch += batch_size
        end = self._index_in_epoch
        return self._images[start:end], self._labels[start:end]


class Datasets:
    def __init__(self, train, validation, test):
        self.train, self.validation, self.test = train, validation, test


def read_data_sets(train_dir, one_hot=False, validation_size=5000, seed=DEFAULT_SEED):
    def read(name, magic):
        return _read_idx(os.path.join(train_dir, name + ".gz"), magic)

    train_images = read("train-images-idx3-ubyte", 0x803)
    train_labels = read("train-labels-idx1-ubyte", 0x801).astype(numpy.int64)
    test_images = read("t10k-images-idx3-ubyte", 0x803)
    test_labels = read("t10k-labels-idx1-ubyte", 0x801).astype(numpy.int64)
    if one_hot:
        train_labels = dense_to_one_hot(train_labels, NUM_CLASSES)
        test_labels = dense_to_one_hot(test_labels, NUM_CLASSES)
    return Datasets(
        train=DataSet(train_images[validation_size:], train_labels[validation_size:], seed),
        validation=DataSet(train_images[:validation_size], train_labels[:validation_size], seed),
        test=DataSet(test_images, test_labels, seed))


def default_data_dir():
    """minitf's default_data_dir(): $MINITF_MNIST_DIR, else Debian's Fashion-MNIST."""
    return os.environ.get("MINITF_MNIST_DIR") or "/usr/share/datasets/fashion-mnist"
