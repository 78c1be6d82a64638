#include "story_gen/composer.hpp"

#include <algorithm>
#include <cctype>

#include "util/error.hpp"

namespace tf::story_gen {

namespace {
const char* subject(const Character& c) { return c.female ? "she" : "he"; }
const char* possessive_pronoun(const Character& c) { return c.female ? "her" : "his"; }
const char* object_pronoun(const Character& c) { return c.female ? "her" : "him"; }

bool is_female_role(const std::string& role) {
  for (const char* r : {"mom", "grandma", "aunt", "nanny", "mommy", "granny"})
    if (role == r) return true;
  return false;
}

bool starts_with_vowel_sound(std::string_view word) {
  if (word.empty()) return false;
  const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(word[0])));
  const std::string_view head = word.substr(0, 3);
  if (head == "uni" || head == "use" || head == "one") return false;            // "a unicorn", "a useful"
  if (word.rfind("honest", 0) == 0 || word.rfind("hour", 0) == 0) return true;  // "an honest"
  return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
}

bool is_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

// "a apple" -> "an apple" (also "A owl" at a sentence start).
std::string fix_articles(const std::string& s) {
  std::string out;
  out.reserve(s.size() + 8);
  for (size_t i = 0; i < s.size(); ++i) {
    out.push_back(s[i]);
    const bool lone_a = (s[i] == 'a' || s[i] == 'A') && (i == 0 || !is_letter(s[i - 1])) &&
                        i + 1 < s.size() && s[i + 1] == ' ';
    if (lone_a && starts_with_vowel_sound(std::string_view(s).substr(i + 2))) out.push_back('n');
  }
  return out;
}

// Upper-cases the first letter of the sentence, of each sentence after ". ", and after each opening quote.
void capitalise(std::string& s) {
  bool want = true, in_quote = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"') {
      in_quote = !in_quote;
      if (in_quote) want = true;
    } else if (is_letter(c)) {
      if (want) s[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      want = false;
    } else if ((c == '.' || c == '!' || c == '?') && i + 1 < s.size() && s[i + 1] == ' ') {
      want = true;
    }
  }
}
}  // namespace

Composer::Composer(Rng& rng) : rng_(rng), lex_(lexicon()) {}

size_t Composer::pick_index(size_t n) {
  // P(rank r) ~ 1 / (r + 2): cumulative weights per list length, built on first use.
  std::vector<double>& cum = cumulative_[n];
  if (cum.empty()) {
    double total = 0;
    for (size_t r = 0; r < n; ++r) cum.push_back(total += 1.0 / static_cast<double>(r + 2));
  }
  const double u = rng_.uniform_double() * cum.back();
  return static_cast<size_t>(std::upper_bound(cum.begin(), cum.end(), u) - cum.begin());
}

const std::string& Composer::pick(const WordList& list) {
  return list[std::min(pick_index(list.size()), list.size() - 1)];
}

Character Composer::make_child() {
  Character c;
  c.female = chance(0.5);
  c.name = pick(c.female ? lex_.girl_names : lex_.boy_names);
  c.kind = c.female ? "girl" : "boy";
  return c;
}

Character Composer::make_animal(bool named) {
  Character c;
  c.female = chance(0.5);
  c.kind = pick(lex_.animals);
  c.named = named;
  c.name = named ? pick(c.female ? lex_.girl_names : lex_.boy_names) : c.kind;
  return c;
}

void Composer::begin_story() {
  hero_ = chance(0.65) ? make_child() : make_animal(true);
  do {
    friend_char_ = chance(0.5) ? make_child() : make_animal(chance(0.4));
  } while (friend_char_.name == hero_.name);
  grown_up_.kind = pick(lex_.grown_ups);
  grown_up_.name = grown_up_.kind;
  grown_up_.named = false;
  grown_up_.female = is_female_role(grown_up_.kind);
  item_ = pick(lex_.toys);
  item_adj_ = pick(chance(0.5) ? lex_.colors : lex_.looks);
  place_ = pick(lex_.places);
  fun_ = pick(lex_.play_verbs);
  snack_ = pick(lex_.foods);
  pet_ = pick(lex_.animals);
}

bool Composer::append_character_slot(std::string_view name, std::string& out) {
  const char who = name.empty() ? ' ' : name[0];
  const Character* c = who == 'H' ? &hero_ : who == 'F' ? &friend_char_ : who == 'G' ? &grown_up_ : nullptr;
  if (c == nullptr) return false;
  const std::string_view rest = name.substr(1);
  std::string base;
  if (c == &grown_up_) {
    base = std::string(possessive_pronoun(hero_)) + " " + c->kind;
  } else {
    base = c->named ? c->name : "the " + c->name;
  }
  if (rest.empty())
    out += base;
  else if (rest == "'s")
    out += base + "'s";
  else if (rest == "he")
    out += subject(*c);
  else if (rest == "his")
    out += possessive_pronoun(*c);
  else if (rest == "him")
    out += object_pronoun(*c);
  else if (rest == "kind")
    out += c->kind;
  else if (rest == "name")
    out += std::string(1, static_cast<char>(std::toupper(c->kind[0]))) + c->kind.substr(1);
  else
    return false;
  return true;
}

bool Composer::append_prop_slot(std::string_view name, std::string& out) {
  if (name == "item")
    out += item_;
  else if (name == "items")
    out += plural(item_);
  else if (name == "itemadj")
    out += item_adj_;
  else if (name == "place0")
    out += place_;
  else if (name == "fun")
    out += fun_;
  else if (name == "funing")
    out += ing(fun_);
  else if (name == "funed")
    out += past(fun_);
  else if (name == "snack")
    out += snack_;
  else if (name == "pet")
    out += pet_;
  else
    return false;
  return true;
}

bool Composer::append_verb_slot(std::string_view name, std::string& out) {
  struct Verb {
    const char* slot;
    const WordList* list;
    int form;
  };  // form: 0 base, 1 past, 2 -ing
  const Verb verbs[] = {{"play", &lex_.play_verbs, 0},      {"played", &lex_.play_verbs, 1},
                        {"playing", &lex_.play_verbs, 2},   {"handle", &lex_.handle_verbs, 0},
                        {"handled", &lex_.handle_verbs, 1}, {"handling", &lex_.handle_verbs, 2},
                        {"move", &lex_.move_verbs, 0},      {"moved", &lex_.move_verbs, 1},
                        {"moving", &lex_.move_verbs, 2}};
  for (const Verb& v : verbs) {
    if (name != v.slot) continue;
    const std::string& base = pick(*v.list);
    out += v.form == 0 ? base : v.form == 1 ? past(base) : ing(base);
    return true;
  }
  return false;
}

bool Composer::append_word_slot(std::string_view name, std::string& out) {
  struct Word {
    const char* slot;
    const WordList* list;
    bool plural;
  };
  const Word words[] = {{"size", &lex_.sizes, false},       {"color", &lex_.colors, false},
                        {"look", &lex_.looks, false},       {"trait", &lex_.traits, false},
                        {"feeling", &lex_.feelings, false}, {"bad", &lex_.bad_feelings, false},
                        {"weather", &lex_.weathers, false}, {"state", &lex_.states, false},
                        {"animal", &lex_.animals, false},   {"animals", &lex_.animals, true},
                        {"toy", &lex_.toys, false},         {"toys", &lex_.toys, true},
                        {"clothes", &lex_.clothes, false},  {"thing", &lex_.things, false},
                        {"things", &lex_.things, true},     {"food", &lex_.foods, false},
                        {"foods", &lex_.foods, true},       {"place", &lex_.places, false},
                        {"spot", &lex_.spots, false},       {"nature", &lex_.nature, false},
                        {"natures", &lex_.nature, true},    {"body", &lex_.body_parts, false},
                        {"said", &lex_.say_verbs, false},   {"reacted", &lex_.react_verbs, false},
                        {"adv", &lex_.adverbs, false},      {"time", &lex_.times, false},
                        {"sound", &lex_.sounds, false},     {"exclaim", &lex_.exclaims, false},
                        {"game", &lex_.games, false},       {"job", &lex_.jobs, false},
                        {"treat", &lex_.treats, false}};
  for (const Word& w : words) {
    if (name != w.slot) continue;
    const std::string& word = pick(*w.list);
    out += w.plural ? plural(word) : word;
    return true;
  }
  if (name == "adj") {
    const int which = static_cast<int>(below(3));
    out += pick(which == 0 ? lex_.sizes : which == 1 ? lex_.colors : lex_.looks);
  } else if (name == "name") {
    out += pick(chance(0.5) ? lex_.girl_names : lex_.boy_names);
  } else {
    return false;
  }
  return true;
}

void Composer::append_slot(std::string_view name, std::string& out) {
  if (append_character_slot(name, out) || append_prop_slot(name, out) || append_verb_slot(name, out) ||
      append_word_slot(name, out))
    return;
  fail("story grammar: unknown slot {", name, "}");
}

std::string Composer::render(std::string_view tmpl) {
  std::string out;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] != '{') {
      out.push_back(tmpl[i]);
      continue;
    }
    const size_t close = tmpl.find('}', i);
    TF_CHECK(close != std::string_view::npos, "story grammar: unclosed slot in \"", tmpl, "\"");
    append_slot(tmpl.substr(i + 1, close - i - 1), out);
    i = close;
  }
  out = fix_articles(out);
  capitalise(out);
  return out;
}

void Composer::sentence(std::string_view tmpl) {
  if (paragraph_open_) text_.push_back(' ');
  text_ += render(tmpl);
  paragraph_open_ = true;
}

void Composer::one_of(std::initializer_list<const char*> options) {
  sentence(*(options.begin() + below(static_cast<int64_t>(options.size()))));
}

void Composer::paragraph() {
  if (paragraph_open_) text_.push_back('\n');
  paragraph_open_ = false;
}

void Composer::end_story() {
  paragraph();
  text_ += "<|endoftext|>\n";
}

}  // namespace tf::story_gen
