// GPU visibility: which GPUs a process sees, and under which numbers.
//
// A GPU goes by three numbers. The driver numbers the cards in the machine
// (0..N-1). The environment variable CUDA_VISIBLE_DEVICES hides some of them
// from the process and renumbers the rest from 0 in the order listed: with
// CUDA_VISIBLE_DEVICES=2,0 the process sees card 2 as its GPU 0 ("platform
// GPU id" in TensorFlow's words). Then ConfigProto.gpu_options.
// visible_device_list picks, among those, the ones a session uses, and
// TensorFlow numbers them once more from 0 in that order: those are the
// GPU:0, GPU:1 of device names ("TF GPU ids"). So "/gpu:0" may well be the
// third card. Virtual GPUs (virtual_gpu_device.h) go through the same two
// filters, so that programs written for real GPUs behave the same on them.
//
//   tf::VisibleByEnvironment("2,0", 4);       // {2, 0}: cards 2 and 0
//   tf::ParseVisibleDeviceList("1", 2);        // {1}: GPU:0 is platform id 1
//   tf::ParseVisibleDeviceList("0,0", 2);      // InvalidArgument: duplicate
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "minitf/tensor/status.h"

namespace minitf {

/// What CUDA_VISIBLE_DEVICES leaves of `device_count` cards, as the CUDA
/// driver reads it: `env` null (unset) shows every card in order; otherwise
/// the comma-separated card numbers in the order listed, up to the first
/// entry that is not a number of an existing card not already listed, where
/// the driver stops reading ("0,7,1" on two cards shows card 0 only). So ""
/// and "-1" hide every card. Element i of the result is the card that the
/// process sees as its GPU i.
std::vector<int> VisibleByEnvironment(const char* env, int device_count);

/// TensorFlow's ParseVisibleDeviceList: the platform GPU ids named by
/// gpu_options.visible_device_list, in its order, among `visible_count`
/// visible GPUs; every one of them, in order, for "". Errors, with
/// TensorFlow's words, all InvalidArgument:
///   "Could not parse entry in 'visible_device_list': 'x'.
///    visible_device_list = 0,x"
///   "'visible_device_list' listed an invalid GPU id '2' but visible device
///    count is 2"
///   "visible_device_list contained a duplicate entry: 0,0"
StatusOr<std::vector<int>> ParseVisibleDeviceList(
    std::string_view visible_device_list, int visible_count);

}  // namespace minitf
