// The words of the built-in story grammar (grammar.hpp), written for this project: word lists by
// role, most common first (the grammar draws early entries more often, like real text), and the English
// inflection rules the grammar needs (plural, past, -ing) with a table of irregular forms.
#pragma once
#include <string>
#include <vector>

namespace tf::story_gen {

using WordList = std::vector<std::string>;

struct Lexicon {
  WordList girl_names, boy_names;
  WordList animals;    // creatures a story can be about or meet ("bunny", "owl")
  WordList grown_ups;  // family who help ("mom", "grandpa")
  WordList toys;       // things a child plays with or loses
  WordList clothes;
  WordList things;  // everyday objects around the house and outside
  WordList foods;
  WordList places;  // "the park", "the forest": where a scene happens
  WordList spots;   // smaller places to look in ("under the bed" uses "bed")
  WordList nature;  // what one sees outside ("flower", "cloud")
  WordList body_parts;
  WordList sizes, colors, looks, traits, feelings, bad_feelings, weathers, states;
  WordList play_verbs;    // intransitive fun: "loved to dance"
  WordList handle_verbs;  // done to an object: "kick the ball"
  WordList move_verbs;    // ways of going somewhere: "hopped to the pond"
  WordList say_verbs;     // past tense only: "whispered"
  WordList react_verbs;   // past tense only, no object: "smiled"
  WordList adverbs, times, sounds, exclaims, games, treats;
  WordList jobs;  // grown-ups met outside the family ("baker", "wizard")
};

const Lexicon& lexicon();

std::string plural(const std::string& noun);
std::string past(const std::string& verb);
std::string ing(const std::string& verb);

}  // namespace tf::story_gen
