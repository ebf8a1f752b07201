// Between the structs a process holds and the messages it sends.
//
// Layers 2 and 4 keep a session's configuration and a device's description
// as plain structs (ConfigProto in minitf/graph/config.h, DeviceAttributes in
// minitf/device/devices/device_attributes.h), and this layer's ClusterSpec is a
// class; on the wire they are the messages of proto/. These functions convert,
// field by field, in both directions where the runtime needs both. A Status
// crosses the wire as gRPC's own status (grpc_status.h).
//
//   proto::DeviceAttributes wire =
//       tf::DeviceAttributesToProto(device->attributes());
//   proto::ClusterDef def = tf::ClusterSpecToProto(cluster);  // jobs sorted
#pragma once

#include "minitf/device/devices/device_attributes.h"
#include "minitf/distributed/runtime/cluster_spec.h"
#include "minitf/distributed/runtime/proto/cluster.pb.h"
#include "minitf/distributed/runtime/proto/config.pb.h"
#include "minitf/distributed/runtime/proto/device_attributes.pb.h"
#include "minitf/graph/config.h"
#include "minitf/tensor/status.h"

namespace minitf {

proto::DeviceAttributes DeviceAttributesToProto(const DeviceAttributes& a);
/// InvalidArgument when the name is not a full device name with a type and
/// an index, or the incarnation is 0.
StatusOr<DeviceAttributes> DeviceAttributesFromProto(
    const proto::DeviceAttributes& a);

/// Jobs sorted by name and tasks by index, as TensorFlow writes a
/// ClusterDef, so that one cluster always gives the same bytes.
proto::ClusterDef ClusterSpecToProto(const train::ClusterSpec& cluster);
/// InvalidArgument when a job is named twice.
StatusOr<train::ClusterSpec> ClusterSpecFromProto(const proto::ClusterDef& def);

/// The fields of minitf's ConfigProto that the message has (minitf's own
/// fields, such as virtual GPUs, stay behind: they describe one machine).
proto::ConfigProto ConfigProtoToProto(const ConfigProto& config);
ConfigProto ConfigProtoFromProto(const proto::ConfigProto& config);

}  // namespace minitf
