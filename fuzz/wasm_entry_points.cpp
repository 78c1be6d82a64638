// Fuzz target: checkpoint bytes as the page's worker hands an uploaded file to the wasm module, through the
// same core calls as its two entry points (wasm/bindings_session.cpp): inspectCheckpoint (the file read as a
// saved run, described, as JSON text) and loadModel (a viewing session, its config and vocabulary as JSON,
// then a few words written). Refusals are tf::Errors; every description is valid JSON and the model a file
// opens as is the one its description names.
#include <nlohmann/json.hpp>

#include "fuzz_check.hpp"
#include "run/session.hpp"
#include "sample/write_text.hpp"
#include "util/error.hpp"

using namespace tf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nlohmann::json described;
  try {
    described = nlohmann::json::parse(describe_saved_run(load_saved_run_bytes(data, size)).dump());
  } catch (const Error&) {
    return 0;
  }
  std::unique_ptr<Session> s = Session::view(load_saved_run_bytes(data, size));  // inspected: it opens
  FUZZ_CHECK(nlohmann::json::parse(s->model().config().to_json()) == described["config"],
             "the model opened is not the one described");
  FUZZ_CHECK(nlohmann::json(s->vocab()) == described["vocab"],
             "the vocabulary opened is not the one described");
  if (s->model().sorter() || s->vocab().empty()) return 0;
  WriteRequest r;
  r.prompt = s->vocab().front();
  r.length = std::min<int64_t>(4, s->model().config().max_length);
  r.count = 1;
  try {
    write_text(s->model(), s->codec("writing"), r);
  } catch (const Error&) {  // a request this model cannot take (a one-word prompt too long, no mask)
  }
  return 0;
}
