#include "minitf/graph/proto_convert.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace minitf {
namespace {

TEST(ProtoConvertTest, TypedValueRules) {
  proto::TensorProto p;
  p.set_dtype(proto::DT_INT64);
  p.mutable_tensor_shape()->add_dim()->set_size(3);
  EXPECT_EQ(TensorFromProto(p).value().ToVector<int64_t>(),
            (std::vector<int64_t>{0, 0, 0}));
  p.add_int64_val(1);
  p.add_int64_val(2);
  EXPECT_EQ(TensorFromProto(p).value().ToVector<int64_t>(),
            (std::vector<int64_t>{1, 2, 2}));
  p.add_int64_val(3);
  p.add_int64_val(4);
  EXPECT_EQ(TensorFromProto(p).status().message(),
            "TensorProto of type int64 and shape [3] holds 3 values, but 4 "
            "are given");

  proto::TensorProto b;
  b.set_dtype(proto::DT_BOOL);
  b.mutable_tensor_shape()->add_dim()->set_size(3);
  b.set_tensor_content(std::string("\x01\x00\x07", 3));
  EXPECT_EQ(TensorFromProto(b).value().ToVector<bool>(),
            (std::vector<bool>{true, false, true}));

  proto::TensorProto d;
  d.set_dtype(proto::DT_DOUBLE);
  d.add_double_val(2.5);
  EXPECT_EQ(TensorFromProto(d).value().ToVector<double>(),
            std::vector<double>{2.5});

  proto::TensorProto big;
  big.set_dtype(proto::DT_FLOAT);
  big.mutable_tensor_shape()->add_dim()->set_size(int64_t{1} << 40);
  EXPECT_EQ(TensorFromProto(big).status().code(), error::RESOURCE_EXHAUSTED);
}

TEST(ProtoConvertTest, AFewBytesMayClaimALargeTensorOfZerosOrOfTheLastValue) {
  // 4 Mi floats from a message of a dozen bytes, as TensorFlow reads it.
  proto::TensorProto zeros;
  zeros.set_dtype(proto::DT_FLOAT);
  zeros.mutable_tensor_shape()->add_dim()->set_size(int64_t{1} << 22);
  EXPECT_LT(zeros.ByteSizeLong(), 16u);
  const Tensor z = TensorFromProto(zeros).value();
  const float* zv = z.data<float>();
  EXPECT_TRUE(std::all_of(zv, zv + z.NumElements(), [](float v) {
    return v == 0.0f && !std::signbit(v);
  }));

  // The last value fills the rest bit for bit: -0.0 stays negative zero.
  proto::TensorProto last;
  last.set_dtype(proto::DT_FLOAT);
  last.mutable_tensor_shape()->add_dim()->set_size(4);
  last.add_float_val(1.5f);
  last.add_float_val(-0.0f);
  const std::vector<float> lv = TensorFromProto(last).value().ToVector<float>();
  ASSERT_EQ(lv.size(), 4u);
  EXPECT_EQ(lv[0], 1.5f);
  for (int i = 1; i < 4; ++i) EXPECT_TRUE(lv[i] == 0.0f && std::signbit(lv[i]));
}

TEST(ProtoConvertTest, ShapesAndEmptyLists) {
  proto::TensorShapeProto s;
  s.add_dim()->set_size(-5);
  EXPECT_EQ(ShapeFromProto(s).status().code(), error::INVALID_ARGUMENT);
  s.Clear();
  s.set_unknown_rank(true);
  s.add_dim()->set_size(2);
  EXPECT_EQ(ShapeFromProto(s).status().code(), error::INVALID_ARGUMENT);

  proto::AttrValue empty;
  empty.mutable_list();
  EXPECT_EQ(AttrValueFromProto(empty, "list(int)").value().KindName(),
            "list(int)");
  EXPECT_EQ(AttrValueFromProto(empty).value().KindName(), "list(string)");
  proto::AttrValue bools;
  bools.mutable_list()->add_b(true);
  EXPECT_EQ(AttrValueFromProto(bools).status().code(), error::UNIMPLEMENTED);

  for (const AttrValue& v :
       {AttrValue(std::vector<int64_t>{1, -2}),
        AttrValue(std::vector<float>{0.5f}),
        AttrValue(std::vector<DType>{DT_INT32, DT_BOOL}),
        AttrValue(std::vector<TensorShape>{TensorShape({None, 2}),
                                           TensorShape::UnknownRank()}),
        AttrValue("bytes"), AttrValue(int64_t{-7}), AttrValue(1.5f)}) {
    proto::AttrValue p;
    ASSERT_TRUE(AttrValueToProto(v, &p).ok());
    EXPECT_EQ(AttrValueFromProto(p, v.KindName()).value(), v)
        << v.DebugString();
  }
}

}  // namespace
}  // namespace minitf
