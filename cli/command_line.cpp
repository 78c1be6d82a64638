#include "command_line.hpp"

#include <cstdio>
#include <new>

#include <CLI/CLI.hpp>

#include "args.hpp"
#include "tinyformer.hpp"

namespace tf::cli {

namespace {

const char* kExitStatus =
    R"(Exit status: 0 done; 1 failed while running (a file, the disk, the network, memory); 2 usage error (an
unknown option or a bad value: see --help); 130 train interrupted by Ctrl-C or SIGTERM, after saving to
--save. The last line on stdout is one JSON object; with --json (info, write, lens, patch), stdout holds only
JSON.)";

// Thrown by the hidden --list-options flag: prints every option a subcommand accepts (tests/cli checks that
// each one is in its --help).
struct ListOptions {
  const CLI::App* command;
};

void add_command(CLI::App& app, const Command& c) {
  CLI::App* sub = app.add_subcommand(c.name, c.summary);
  sub->allow_extras();  // unknown options are reported by check_no_extras(), in our words
  sub->footer(kExitStatus);
  OptionTable table(*sub);
  c.declare(table);
  sub->add_flag_callback("--list-options", [sub] { throw ListOptions{sub}; })
      ->group("")  // hidden from --help
      ->trigger_on_parse();
}

void print_options(const CLI::App& command) {
  for (const CLI::Option* o : command.get_options())
    for (const std::string& name : o->get_lnames())
      if (name != "list-options") std::printf("--%s\n", name.c_str());
}

int usage_error(const std::string& where, const std::string& message) {
  std::fprintf(stderr, "%s: error: %s\nRun '%s --help' for the options.\n", where.c_str(), message.c_str(),
               where.c_str());
  return 2;
}

// What allow_extras() let through: an unknown option or a stray word.
void check_no_extras(const CLI::App& command) {
  std::vector<std::string> rest = command.remaining();
  if (rest.empty()) return;
  const std::string& first = rest.front();
  if (first.rfind("--", 0) == 0) throw UsageError("unknown option " + first.substr(0, first.find('=')));
  throw UsageError("unexpected argument '" + first + "' (options start with --)");
}

int run(const Command& c, const CLI::App& sub, const Runner& runner) {
  try {
    check_no_extras(sub);
    return runner ? runner(c, Args(sub)) : c.run(Args(sub));
  } catch (...) {
    return report_failure(std::string("tinyformer ") + c.name);
  }
}

bool known_command(const std::string& name) {
  for (const Command& c : commands())
    if (name == c.name) return true;
  return false;
}

// `tinyformer help [command]` is `tinyformer [command] --help`.
std::vector<std::string> with_help_word(std::vector<std::string> args) {
  if (!args.empty() && args[0] == "help") {
    args.erase(args.begin());
    args.push_back("--help");
  }
  return args;
}

}  // namespace

int report_failure(const std::string& where) {
  try {
    throw;
  } catch (const UsageError& e) {
    return usage_error(where, e.what());
  } catch (const Error& e) {
    std::fprintf(stderr, "%s: error: %s\n", where.c_str(), e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: error: out of memory\n", where.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: failed: %s\n", where.c_str(), printable(e.what()).c_str());
  }
  return 1;
}

int run_command_line(const std::vector<std::string>& argv, const Runner& runner) {
  CLI::App app("tinyformer " + std::string(kVersion) + ": train, run and inspect Tinyformer models",
               "tinyformer");
  app.set_version_flag("--version", kVersion);
  app.require_subcommand(1);
  app.footer(kExitStatus);
  for (const Command& c : commands()) add_command(app, c);

  std::vector<std::string> args = with_help_word(argv);
  if (args.empty()) {
    std::fputs(app.help().c_str(), stderr);
    return 2;
  }
  if (args[0].rfind("-", 0) != 0 && !known_command(args[0]))
    return usage_error(
        "tinyformer", "unknown command '" + args[0] + "' (expected train, write, eval, info, lens or patch)");
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  try {
    app.parse(reversed);
  } catch (const ListOptions& l) {
    print_options(*l.command);
    return 0;
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version
  } catch (const CLI::ParseError& e) {
    std::vector<CLI::App*> chosen = app.get_subcommands();
    return usage_error(chosen.empty() ? "tinyformer" : "tinyformer " + chosen.front()->get_name(), e.what());
  }
  for (const Command& c : commands())
    if (app.got_subcommand(c.name)) return run(c, *app.get_subcommand(c.name), runner);
  return usage_error("tinyformer", "no command given");
}

}  // namespace tf::cli
