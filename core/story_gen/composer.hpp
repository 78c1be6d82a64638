// The machinery under the story grammar (internal to core/story_gen): a story's cast and props, word picks
// that favour the head of each list (a Zipf-like 1/(rank+2) weight, so a few words are common and many
// are rare, as in real text), and sentence templates with {slots}, capitals and "a"/"an" fixed after.
// Slots: {H} {F} {G} the hero, a friend and a grown-up ({X's} {Xhe} {Xhis} {Xhim} {Xkind}, {Gname});
// bound props {item} {items} {itemadj} {place0} {fun} {funing} {funed} {snack} {pet}; random words
// {size} {color} {look} {adj} {trait} {feeling} {bad} {weather} {state} {animal} {animals} {toy} {toys}
// {clothes} {thing} {things} {food} {foods} {place} {spot} {nature} {natures} {body} {play} {playing}
// {played} {handle} {handled} {handling} {move} {moved} {moving} {said} {reacted} {adv} {time} {sound}
// {exclaim} {game} {job} {treat} {name}.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "story_gen/lexicon.hpp"
#include "util/rng.hpp"

namespace tf::story_gen {

struct Character {
  std::string name;  // "Mia", or a kind of animal when not named ("duck" -> "the duck")
  std::string kind;  // "girl", "boy", "duck", or a grown-up's role ("mom")
  bool named = true;
  bool female = true;
};

class Composer {
 public:
  explicit Composer(Rng& rng);

  void begin_story();                                       // draws the cast and the props
  void sentence(std::string_view tmpl);                     // renders and appends one sentence
  void one_of(std::initializer_list<const char*> options);  // a sentence from equally likely templates
  void paragraph();                                         // ends the current paragraph
  void end_story();                                         // ends the story with the separator line

  bool chance(double p) { return rng_.uniform_double() < p; }
  int64_t below(int64_t n) { return rng_.below(n); }
  const Character& hero() const { return hero_; }
  const Character& friend_() const { return friend_char_; }
  std::string& text() { return text_; }

 private:
  std::string render(std::string_view tmpl);
  void append_slot(std::string_view name, std::string& out);
  bool append_character_slot(std::string_view name, std::string& out);
  bool append_prop_slot(std::string_view name, std::string& out);
  bool append_word_slot(std::string_view name, std::string& out);
  bool append_verb_slot(std::string_view name, std::string& out);
  const std::string& pick(const WordList& list);
  size_t pick_index(size_t n);
  Character make_child();
  Character make_animal(bool named);

  Rng& rng_;
  const Lexicon& lex_;
  Character hero_, friend_char_, grown_up_;
  std::string item_, item_adj_, place_, fun_, snack_, pet_;
  std::string text_;
  bool paragraph_open_ = false;
  std::unordered_map<size_t, std::vector<double>> cumulative_;  // list length -> cumulative pick weights
};

}  // namespace tf::story_gen
