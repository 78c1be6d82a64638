// Fetching the course's story corpus natively (libcurl; the web page fetches it itself): the first
// 4,000,000 bytes of TinyStoriesV2-GPT4-valid.txt by an HTTP Range request, into a cache folder. The
// download goes to a temporary file in that folder and is renamed into place only when complete, so a
// file at the cache path is always whole and is reused without asking the server again. A server that
// ignores the range (200) is fine: the body is cut at the byte count. The CLI alone downloads, so libcurl
// is the CLI's dependency, not the core's.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace tf::cli {

constexpr const char* kTinyStoriesUrl =
    "https://huggingface.co/datasets/roneneldan/TinyStories/resolve/main/TinyStoriesV2-GPT4-valid.txt";
constexpr int64_t kTinyStoriesBytes = 4'000'000;

struct FetchOptions {
  std::string url = kTinyStoriesUrl;
  int64_t bytes = kTinyStoriesBytes;  // asks for bytes 0 .. bytes-1
  std::string cache_dir;              // empty: default_cache_dir()
  // Called as bytes arrive: (received so far, expected in all). Not called when the cache is reused.
  std::function<void(int64_t received, int64_t expected)> progress;
  long connect_timeout_s = 30;
  long stall_timeout_s = 60;  // give up when under 1 byte/s for this long
};

// $XDG_CACHE_HOME/tinyformer, else $HOME/.cache/tinyformer.
std::string default_cache_dir();

// Where the slice of `options.url` is kept: "<name>-<url hash>-<bytes>.txt" in the cache folder.
std::string cached_slice_path(const FetchOptions& options);

// The path of the complete slice, downloading it first unless it is cached. A failed or short download
// throws tf::Error and leaves nothing behind.
std::string fetch_slice(const FetchOptions& options = {});

// The slice as text, decoded like the page (invalid UTF-8, such as a character cut at the end, dropped).
std::string fetch_tinystories_text(const FetchOptions& options = {});

}  // namespace tf::cli
