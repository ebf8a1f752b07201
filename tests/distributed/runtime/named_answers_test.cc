// MatchByName and UniqueNames on their own: the words of each refusal, for
// a master's answer (fetches) and a worker's (rendezvous keys).
#include "minitf/distributed/runtime/named_answers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tf = minitf;

namespace {

google::protobuf::RepeatedPtrField<tf::proto::NamedTensorProto> Answer(
    const std::vector<std::string>& names) {
  google::protobuf::RepeatedPtrField<tf::proto::NamedTensorProto> answer;
  for (const std::string& n : names) answer.Add()->set_name(n);
  return answer;
}

TEST(NamedAnswersTest, UniqueNamesKeepsFirstSeenOrderAndEverySlot) {
  tf::UniqueNames u = tf::UniqueNames::Of({"c:0", "a:0", "c:0"});
  EXPECT_EQ(u.names, (std::vector<std::string>{"c:0", "a:0"}));
  EXPECT_EQ(u.slot, (std::vector<int>{0, 1, 0}));
}

TEST(NamedAnswersTest, ValuesComeBackInTheOrderAsked) {
  auto answer = Answer({"b", "a"});
  auto values = tf::MatchByName(answer, {"a", "b"}, tf::kFetchKeys);
  ASSERT_TRUE(values.ok());
  EXPECT_EQ(values.value()[0], &answer.Get(1).tensor());
  EXPECT_EQ(values.value()[1], &answer.Get(0).tensor());
}

TEST(NamedAnswersTest, AWorkersAnswerIsRefusedInTheMastersWords) {
  struct Case {
    std::vector<std::string> answered;
    std::string error;
  };
  for (const Case& c :
       std::vector<Case>{{{"a", "b", "x"}, "Unexpected fetch key: x"},
                         {{"a", "a", "b"},
                          "Received more than one response for fetch key: a"},
                         {{"a"}, "Received no response for fetch key: b"}}) {
    auto values =
        tf::MatchByName(Answer(c.answered), {"a", "b"}, tf::kFetchKeys);
    ASSERT_FALSE(values.ok());
    EXPECT_EQ(values.status().code(), tf::error::INTERNAL);
    EXPECT_EQ(values.status().message(), c.error);
  }
}

}  // namespace
