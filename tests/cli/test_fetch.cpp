// The fetch path against a tiny HTTP/1.1 server on 127.0.0.1 run by the test itself (POSIX sockets, one
// thread, one connection at a time, stopped by a flag or a deadline), which can answer a Range request
// properly, ignore it, fail with 404, send fewer bytes than asked, or hang up in the middle of a body.
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cli/fetch.hpp"
#include "util/error.hpp"
#include "util/utf8.hpp"

using namespace tf;
using namespace tf::cli;
namespace fs = std::filesystem;

namespace {
enum class Mode { Range, IgnoreRange, NotFound, FewerBytes, HangUp };

class TestServer {
 public:
  TestServer(std::string body, Mode mode) : body_(std::move(body)), mode_(mode) {
    listener_ = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(listener_ >= 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;  // ephemeral
    REQUIRE(bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(listen(listener_, 8) == 0);
    socklen_t len = sizeof addr;
    getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~TestServer() {
    stop_ = true;
    thread_.join();
    close(listener_);
  }
  std::string url() const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/TinyStoriesV2-GPT4-valid.txt";
  }
  int port() const { return port_; }
  int requests() const { return requests_; }
  std::string last_range() {
    std::lock_guard<std::mutex> lock(mutex_);
    return last_range_;
  }

 private:
  void serve() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!stop_ && std::chrono::steady_clock::now() < deadline) {
      pollfd p{listener_, POLLIN, 0};
      if (poll(&p, 1, 20) <= 0) continue;
      const int conn = accept(listener_, nullptr, nullptr);
      if (conn < 0) continue;
      timeval timeout{2, 0};
      setsockopt(conn, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
      answer(conn, read_request(conn));
      close(conn);
    }
  }

  static std::string read_request(int conn) {
    std::string request;
    char buf[4096];
    while (request.find("\r\n\r\n") == std::string::npos && request.size() < 65536) {
      const ssize_t n = recv(conn, buf, sizeof buf, 0);
      if (n <= 0) break;
      request.append(buf, static_cast<size_t>(n));
    }
    return request;
  }

  static std::string header_value(const std::string& request, const std::string& name) {
    const size_t at = request.find("\r\n" + name + ": ");
    if (at == std::string::npos) return "";
    const size_t start = at + name.size() + 4;
    return request.substr(start, request.find("\r\n", start) - start);
  }

  static void send_all(int conn, const std::string& data) {
    for (size_t sent = 0; sent < data.size();) {
      const ssize_t n = send(conn, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return;  // the client hung up (it stops reading once it has its bytes)
      sent += static_cast<size_t>(n);
    }
  }

  void answer(int conn, const std::string& request) {
    ++requests_;
    const std::string range = header_value(request, "Range");
    {
      std::lock_guard<std::mutex> lock(mutex_);
      last_range_ = range;
    }
    if (mode_ == Mode::NotFound) {
      send_all(conn, "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot found");
      return;
    }
    const int64_t size = static_cast<int64_t>(body_.size());
    long long first = 0, last = size - 1;
    const bool ranged =
        mode_ != Mode::IgnoreRange && std::sscanf(range.c_str(), "bytes=%lld-%lld", &first, &last) == 2;
    if (!ranged) {
      send_all(conn, "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(size) +
                         "\r\nConnection: close\r\n\r\n" + body_);
      return;
    }
    last = std::min<long long>(last, size - 1);
    if (mode_ == Mode::FewerBytes) last = first + (last - first) / 2;  // a valid 206 for less than asked
    const std::string part = body_.substr(static_cast<size_t>(first), static_cast<size_t>(last - first + 1));
    const std::string head = "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes " + std::to_string(first) +
                             "-" + std::to_string(last) + "/" + std::to_string(size) +
                             "\r\nContent-Length: " + std::to_string(part.size()) +
                             "\r\nConnection: close\r\n\r\n";
    send_all(conn, head + (mode_ == Mode::HangUp ? part.substr(0, part.size() / 2) : part));
  }

  std::string body_;
  Mode mode_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  std::mutex mutex_;
  std::string last_range_;
  std::thread thread_;
};

// A folder of its own for each test, removed afterwards.
struct TempDir {
  fs::path path;
  TempDir() {
    static int serial = 0;
    path = fs::temp_directory_path() /
           ("tf-fetch-test-" + std::to_string(getpid()) + "-" + std::to_string(serial++));
    fs::remove_all(path);
  }
  ~TempDir() { fs::remove_all(path); }
  size_t files() const {
    if (!fs::exists(path)) return 0;
    return static_cast<size_t>(std::distance(fs::directory_iterator(path), fs::directory_iterator()));
  }
};

// Text with two-byte characters ("é") so that byte counts can cut one in half.
std::string sample_body(size_t bytes) {
  std::string s;
  for (size_t i = 0; s.size() < bytes; ++i)
    s += "Once upon a time, caf\xc3\xa9 number " + std::to_string(i) + ".\n";
  s.resize(bytes);
  return s;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

FetchOptions options_for(const TestServer& server, const TempDir& dir, int64_t bytes) {
  FetchOptions o;
  o.url = server.url();
  o.cache_dir = dir.path.string();
  o.bytes = bytes;
  o.connect_timeout_s = 5;
  o.stall_timeout_s = 5;
  return o;
}

void check_fails(Mode mode, const char* why) {
  CAPTURE(why);
  TestServer server(sample_body(10000), mode);
  TempDir dir;
  CHECK_THROWS_AS(fetch_slice(options_for(server, dir, 6000)), Error);
  CHECK(dir.files() == 0);  // no half file, no temporary left behind
}
}  // namespace

TEST_SUITE("fetch") {
  TEST_CASE("a range request brings exactly the first bytes and reports progress") {
    const std::string body = sample_body(200000);
    TestServer server(body, Mode::Range);
    TempDir dir;
    FetchOptions o = options_for(server, dir, 150000);
    std::vector<std::pair<int64_t, int64_t>> calls;
    o.progress = [&](int64_t received, int64_t expected) { calls.emplace_back(received, expected); };
    const std::string path = fetch_slice(o);
    CHECK(server.last_range() == "bytes=0-149999");
    CHECK(read_file(path) == body.substr(0, 150000));
    REQUIRE_FALSE(calls.empty());
    for (size_t i = 1; i < calls.size(); ++i) CHECK(calls[i].first > calls[i - 1].first);
    CHECK(calls.back().first == 150000);
    CHECK(calls.back().second == 150000);
    CHECK(dir.files() == 1);
  }

  TEST_CASE("the default asks for bytes 0-3999999 and accepts a shorter whole file") {
    const std::string body = sample_body(10000);
    TestServer server(body, Mode::Range);
    TempDir dir;
    const std::string path = fetch_slice(options_for(server, dir, kTinyStoriesBytes));
    CHECK(server.last_range() == "bytes=0-3999999");
    CHECK(read_file(path) == body);
  }

  TEST_CASE("a cached slice is reused without asking the server") {
    TestServer server(sample_body(10000), Mode::Range);
    TempDir dir;
    FetchOptions o = options_for(server, dir, 6000);
    const std::string first = fetch_slice(o);
    int progress_calls = 0;
    o.progress = [&](int64_t, int64_t) { ++progress_calls; };
    const std::string second = fetch_slice(o);
    CHECK(first == second);
    CHECK(first == cached_slice_path(o));
    CHECK(server.requests() == 1);
    CHECK(progress_calls == 0);
  }

  TEST_CASE("a server that ignores the range is cut at the byte count") {
    const std::string body = sample_body(4500000);
    TestServer server(body, Mode::IgnoreRange);
    TempDir dir;
    const std::string path = fetch_slice(options_for(server, dir, kTinyStoriesBytes));
    const std::string got = read_file(path);
    CHECK(got.size() == 4000000);
    CHECK(got == body.substr(0, 4000000));
  }

  TEST_CASE("failed or partial downloads are errors and leave no file") {
    check_fails(Mode::NotFound, "HTTP 404");
    check_fails(Mode::FewerBytes, "a 206 with fewer bytes than asked while the file is longer");
    check_fails(Mode::HangUp, "the connection closed in the middle of the body");
  }

  TEST_CASE("the error says what went wrong") {
    TestServer server(sample_body(100), Mode::NotFound);
    TempDir dir;
    CHECK_THROWS_WITH_AS(fetch_slice(options_for(server, dir, 50)), doctest::Contains("HTTP 404"), Error);
  }

  TEST_CASE("a refused connection is an error") {
    int port = 0;
    {
      TestServer server("x", Mode::Range);  // a port that was just free and is closed again
      port = server.port();
    }
    TempDir dir;
    FetchOptions o;
    o.url = "http://127.0.0.1:" + std::to_string(port) + "/x.txt";
    o.cache_dir = dir.path.string();
    o.bytes = 10;
    o.connect_timeout_s = 5;
    CHECK_THROWS_AS(fetch_slice(o), Error);
    CHECK(dir.files() == 0);
  }

  TEST_CASE("an exception in the progress callback stops the download and leaves no file") {
    TestServer server(sample_body(100000), Mode::Range);
    TempDir dir;
    FetchOptions o = options_for(server, dir, 90000);
    o.progress = [](int64_t, int64_t) { throw Error("stop"); };
    CHECK_THROWS_WITH_AS(fetch_slice(o), "stop", Error);
    CHECK(dir.files() == 0);
  }

  TEST_CASE("the text drops a character cut in two at the end") {
    const std::string body = sample_body(10000);
    size_t cut = 5000;
    while ((static_cast<unsigned char>(body[cut]) & 0xC0) != 0x80) ++cut;  // inside a two-byte character
    TestServer server(body, Mode::Range);
    TempDir dir;
    const std::string text = fetch_tinystories_text(options_for(server, dir, static_cast<int64_t>(cut)));
    CHECK(text == body.substr(0, cut - 1));
    CHECK(utf8_drop_invalid(text) == text);
  }

  TEST_CASE("the cache folder follows XDG_CACHE_HOME, then HOME") {
    const char* old_xdg = std::getenv("XDG_CACHE_HOME");
    const std::string saved = old_xdg ? old_xdg : "";
    setenv("XDG_CACHE_HOME", "/tmp/xdg-test", 1);
    CHECK(default_cache_dir() == "/tmp/xdg-test/tinyformer");
    unsetenv("XDG_CACHE_HOME");
    if (std::getenv("HOME") != nullptr)
      CHECK(default_cache_dir() == std::string(std::getenv("HOME")) + "/.cache/tinyformer");
    if (old_xdg) setenv("XDG_CACHE_HOME", saved.c_str(), 1);
    FetchOptions o;
    o.cache_dir = "/cache";
    CHECK(cached_slice_path(o).rfind("/cache/TinyStoriesV2-GPT4-valid-", 0) == 0);
    CHECK(cached_slice_path(o).find("-4000000.txt") != std::string::npos);
  }
}
