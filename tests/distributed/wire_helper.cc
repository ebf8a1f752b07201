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
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>

#include <iostream>
#include <iterator>
#include <memory>
#include <string>

// The generated files register their messages when they are linked in; these
// includes are what make the linker keep them.
#include "minitf/distributed/proto/master.pb.h"
#include "minitf/distributed/proto/worker.pb.h"

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
