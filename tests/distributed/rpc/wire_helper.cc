// The layer's messages as bytes, for wire_format.py to compare with
// TensorFlow's own message classes.
//
//   distributed_wire_helper encode RunStepRequest < text > bytes
//   distributed_wire_helper decode RunStepRequest < bytes > text
//
// `encode` reads a message in protobuf text form and writes its bytes;
// `decode` reads bytes and writes the text form. The message is named
// without its package (minitf.proto). Exit status 1, with the reason, for a
// message the layer does not have or input that does not parse.
//
//   distributed_wire_helper encode-by-hand RecvTensorResponse < text > bytes
//   distributed_wire_helper decode-by-hand RecvTensorResponse < bytes > text
//
// do the same for a RecvTensorResponse through the worker's own coding
// (tensor_coding.h), which writes and reads the message without protobuf's
// generated code: its tensor's bytes are sent from the tensor's buffer.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>
#include <grpcpp/support/byte_buffer.h>

#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

// The generated files register their messages when they are linked in; these
// includes are what make the linker keep them.
#include "minitf/distributed/runtime/proto/master.pb.h"
#include "minitf/distributed/runtime/proto/worker.pb.h"
#include "minitf/distributed/runtime/rpc/tensor_coding.h"
#include "minitf/graph/proto_convert.h"

namespace {

// A RecvTensorResponse in text form, written by EncodeRecvTensorResponse.
int EncodeByHand(const std::string& text) {
  minitf::proto::RecvTensorResponse message;
  if (!google::protobuf::TextFormat::ParseFromString(text, &message)) {
    std::cerr << "text does not parse as RecvTensorResponse\n";
    return 1;
  }
  minitf::Tensor value;
  if (!message.is_dead()) {
    minitf::StatusOr<minitf::Tensor> t =
        minitf::TensorFromProto(message.tensor());
    if (!t.ok()) {
      std::cerr << t.status() << "\n";
      return 1;
    }
    value = std::move(t).value();
  }
  grpc::ByteBuffer bytes;
  minitf::Status s =
      minitf::EncodeRecvTensorResponse(value, message.is_dead(), &bytes);
  std::vector<grpc::Slice> slices;
  if (!s.ok() || !bytes.Dump(&slices).ok()) {
    std::cerr << s << "\n";
    return 1;
  }
  for (const grpc::Slice& slice : slices) {
    std::cout.write(reinterpret_cast<const char*>(slice.begin()),
                    static_cast<std::streamsize>(slice.size()));
  }
  return 0;
}

// Bytes read by DecodeRecvTensorResponse, written as a RecvTensorResponse
// in text form.
int DecodeByHand(const std::string& bytes) {
  grpc::Slice slice(bytes);
  grpc::ByteBuffer buffer(&slice, 1);
  minitf::Tensor value;
  bool is_dead = false;
  minitf::Status s = minitf::DecodeRecvTensorResponse(
      &buffer, minitf::cpu_allocator(), &value, &is_dead);
  minitf::proto::RecvTensorResponse message;
  message.set_is_dead(is_dead);
  if (s.ok() && !is_dead) {
    s = minitf::TensorToProto(value, message.mutable_tensor());
  }
  if (!s.ok()) {
    std::cerr << s << "\n";
    return 1;
  }
  std::string text;
  google::protobuf::TextFormat::PrintToString(message, &text);
  std::cout << text;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " encode|decode MessageName\n";
    return 2;
  }
  const std::string mode = argv[1];
  const std::string name = std::string("minitf.proto.") + argv[2];
  const google::protobuf::Descriptor* descriptor =
      google::protobuf::DescriptorPool::generated_pool()->FindMessageTypeByName(
          name);
  if (descriptor == nullptr) {
    std::cerr << "no message " << name << "\n";
    return 1;
  }
  std::unique_ptr<google::protobuf::Message> message(
      google::protobuf::MessageFactory::generated_factory()
          ->GetPrototype(descriptor)
          ->New());
  const std::string input(std::istreambuf_iterator<char>(std::cin), {});
  if (mode == "encode-by-hand" || mode == "decode-by-hand") {
    if (name != "minitf.proto.RecvTensorResponse") {
      std::cerr << mode << " writes RecvTensorResponse only\n";
      return 2;
    }
    return mode == "encode-by-hand" ? EncodeByHand(input) : DecodeByHand(input);
  }
  if (mode == "encode") {
    if (!google::protobuf::TextFormat::ParseFromString(input, message.get())) {
      std::cerr << "text does not parse as " << name << "\n";
      return 1;
    }
    std::cout << message->SerializeAsString();
  } else if (mode == "decode") {
    if (!message->ParseFromString(input)) {
      std::cerr << "bytes do not parse as " << name << "\n";
      return 1;
    }
    std::string text;
    google::protobuf::TextFormat::PrintToString(*message, &text);
    std::cout << text;
  } else {
    std::cerr << "unknown mode " << mode << "\n";
    return 2;
  }
  return 0;
}
