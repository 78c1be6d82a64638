#include "fetch.hpp"

#include <curl/curl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <mutex>

#include "tinyformer.hpp"

namespace tf::cli {

namespace fs = std::filesystem;

namespace {
// What the final response (after redirects) said about its body.
struct ResponseHead {
  long status = 0;
  int64_t content_length = -1;                                  // -1: not announced
  int64_t range_first = -1, range_last = -1, range_total = -1;  // Content-Range, -1 where absent or "*"
};

struct Transfer {
  const FetchOptions* options = nullptr;
  std::FILE* file = nullptr;
  ResponseHead head;
  long http_code = 0;  // as libcurl saw it, also when it stopped at an error status
  int64_t received = 0;
  bool cut_short = false;  // we stopped a longer body at options->bytes
  bool write_failed = false;
  std::exception_ptr callback_error;
};

bool starts_with_ci(const std::string& line, const char* prefix) {
  size_t i = 0;
  for (; prefix[i] != '\0'; ++i)
    if (i >= line.size() || std::tolower(static_cast<unsigned char>(line[i])) != prefix[i]) return false;
  return true;
}

void parse_header_line(const std::string& line, ResponseHead& head) {
  if (starts_with_ci(line, "http/")) {
    head = ResponseHead{};  // a new response begins (the first ones may be redirects)
    const size_t space = line.find(' ');
    if (space != std::string::npos) head.status = std::strtol(line.c_str() + space + 1, nullptr, 10);
  } else if (starts_with_ci(line, "content-length:")) {
    head.content_length = std::strtoll(line.c_str() + 15, nullptr, 10);
  } else if (starts_with_ci(line, "content-range:")) {
    long long first = -1, last = -1, total = -1;
    if (std::sscanf(line.c_str() + 14, " bytes %lld-%lld/%lld", &first, &last, &total) >= 2) {
      head.range_first = first;
      head.range_last = last;
      head.range_total = total;
    }
  }
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  std::string line(data, size * count);
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
  parse_header_line(line, t->head);
  return size * count;
}

// The number of bytes the slice should end with, as far as the final response tells.
int64_t expected_bytes(const ResponseHead& head, int64_t wanted) {
  int64_t expect = wanted;
  if (head.status == 206 && head.range_total >= 0) expect = std::min(expect, head.range_total);
  if (head.status != 206 && head.content_length >= 0) expect = std::min(expect, head.content_length);
  return expect;
}

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const int64_t n = static_cast<int64_t>(size * count);
  const int64_t keep = std::min(n, t->options->bytes - t->received);
  if (keep > 0 && std::fwrite(data, 1, static_cast<size_t>(keep), t->file) != static_cast<size_t>(keep)) {
    t->write_failed = true;
    return 0;
  }
  t->received += keep;
  if (t->options->progress) {
    try {
      t->options->progress(t->received, expected_bytes(t->head, t->options->bytes));
    } catch (...) {
      t->callback_error = std::current_exception();
      return 0;  // exceptions must not cross libcurl's C frames: stop, rethrow after
    }
  }
  if (keep < n) t->cut_short = true;
  return keep < n ? 0 : static_cast<size_t>(n);
}

void init_curl_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    TF_CHECK(curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK, "fetch: libcurl failed to initialise");
  });
}

bool is_loopback(const std::string& url) {
  for (const char* prefix : {"http://127.0.0.1", "http://localhost", "http://[::1]"})
    if (url.rfind(prefix, 0) == 0) return true;
  return false;
}

void configure(CURL* curl, Transfer& t, const std::string& range) {
  const FetchOptions& o = *t.options;
  curl_easy_setopt(curl, CURLOPT_URL, o.url.c_str());
  curl_easy_setopt(curl, CURLOPT_RANGE, range.c_str());
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 8L);
  curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "tinyformer");
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, o.connect_timeout_s);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, o.stall_timeout_s);
  if (is_loopback(o.url)) curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
}

// Throws unless the transfer produced the whole slice.
void check_outcome(const Transfer& t, CURLcode code, const char* curl_message, const std::string& url) {
  if (t.callback_error) std::rethrow_exception(t.callback_error);
  TF_CHECK(!t.write_failed, "fetch: could not write the download to disk");
  const bool stopped_on_purpose = code == CURLE_WRITE_ERROR && t.cut_short;
  if (code == CURLE_HTTP_RETURNED_ERROR) fail("fetch: ", url, " answered HTTP ", t.http_code);
  TF_CHECK(code == CURLE_OK || stopped_on_purpose, "fetch: downloading ", url, " failed: ", curl_message);
  TF_CHECK(t.head.status == 200 || t.head.status == 206, "fetch: ", url, " answered HTTP ", t.head.status,
           " instead of the file");
  TF_CHECK(t.head.status != 206 || t.head.range_first <= 0, "fetch: ", url,
           " sent a range that does not start at byte 0");
  const int64_t expect = expected_bytes(t.head, t.options->bytes);
  TF_CHECK(t.received >= expect, "fetch: ", url, " sent ", t.received, " bytes, expected ", expect);
  TF_CHECK(t.received > 0, "fetch: ", url, " sent an empty file");
}

void download_to(const FetchOptions& options, const fs::path& part) {
  init_curl_once();
  Transfer t;
  t.options = &options;
  t.file = std::fopen(part.c_str(), "wb");
  TF_CHECK(t.file != nullptr, "fetch: cannot create ", part.string());
  CURL* curl = curl_easy_init();
  char message[CURL_ERROR_SIZE] = "";
  CURLcode code = CURLE_FAILED_INIT;
  if (curl != nullptr) {
    const std::string range = "0-" + std::to_string(options.bytes - 1);
    configure(curl, t, range);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, message);
    code = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &t.http_code);
    if (message[0] == '\0') std::snprintf(message, sizeof message, "%s", curl_easy_strerror(code));
    curl_easy_cleanup(curl);
  }
  const bool closed = std::fclose(t.file) == 0;
  check_outcome(t, code, message, options.url);
  TF_CHECK(closed, "fetch: could not finish writing ", part.string());
}

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ull;
  return h;
}

std::string file_stem_of(const std::string& url) {
  std::string name = url.substr(url.find_last_of('/') + 1);
  name = name.substr(0, name.find_first_of("?#"));
  if (name.size() > 4 && name.compare(name.size() - 4, 4, ".txt") == 0) name.resize(name.size() - 4);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
  return name.empty() ? "download" : name;
}
}  // namespace

std::string default_cache_dir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg != nullptr && xdg[0] != '\0') return (fs::path(xdg) / "tinyformer").string();
  const char* home = std::getenv("HOME");
  TF_CHECK(home != nullptr && home[0] != '\0',
           "fetch: neither XDG_CACHE_HOME nor HOME is set; give a cache folder");
  return (fs::path(home) / ".cache" / "tinyformer").string();
}

std::string cached_slice_path(const FetchOptions& options) {
  char hash[17];
  std::snprintf(hash, sizeof hash, "%08llx",
                static_cast<unsigned long long>(fnv1a(options.url) & 0xFFFFFFFFull));
  const fs::path dir =
      options.cache_dir.empty() ? fs::path(default_cache_dir()) : fs::path(options.cache_dir);
  const std::string name =
      file_stem_of(options.url) + "-" + hash + "-" + std::to_string(options.bytes) + ".txt";
  return (dir / name).string();
}

std::string fetch_slice(const FetchOptions& options) {
  TF_CHECK(options.bytes > 0, "fetch: the byte count must be positive, got ", options.bytes);
  const fs::path target = cached_slice_path(options);
  std::error_code ec;
  if (fs::is_regular_file(target, ec) && fs::file_size(target, ec) > 0) return target.string();
  fs::create_directories(target.parent_path(), ec);
  TF_CHECK(!ec, "fetch: cannot create the cache folder ", target.parent_path().string(), ": ", ec.message());
  static std::atomic<int> serial{0};
  const fs::path part =
      target.string() + ".part-" + std::to_string(getpid()) + "-" + std::to_string(serial++);
  try {
    download_to(options, part);
  } catch (...) {
    fs::remove(part, ec);
    throw;
  }
  fs::rename(part, target, ec);  // atomic within one folder: readers see no file or the whole file
  if (ec) {
    std::error_code ignored;
    fs::remove(part, ignored);
  }
  TF_CHECK(!ec, "fetch: cannot move the download to ", target.string(), ": ", ec.message());
  return target.string();
}

std::string fetch_tinystories_text(const FetchOptions& options) {
  return read_text_file(fetch_slice(options), options.bytes);
}

}  // namespace tf::cli
