#include "story_gen/grammar.hpp"

#include "story_gen/composer.hpp"
#include "util/error.hpp"

namespace tf {

namespace {
using story_gen::Composer;

void opening(Composer& w) {
  w.one_of({"Once upon a time, there was a {trait} little {Hkind} named {H}.",
            "Once upon a time, in a {adj} {place0}, there lived a {Hkind} named {H}.",
            "There once was a {size} {Hkind} called {H}.",
            "One {weather} morning, a {trait} {Hkind} named {H} woke up early.",
            "{H} was a {trait} {Hkind} who lived near the {place0}.",
            "Once upon a time, there was a {Hkind} named {H} who loved to {fun}.",
            "Once there was a {look} {Hkind} named {H}."});
  const int64_t extra = 1 + w.below(3);
  for (int64_t k = 0; k < extra; ++k)
    w.one_of({"{Hhe} loved to {fun} every day.", "{Hhe} had a {itemadj} {item} that {Hhe} took everywhere.",
              "{H's} favorite thing was {Hhis} {itemadj} {item}.",
              "Every {time}, {H} liked to {play} in the {place}.", "{Hhe} lived with {G} in a {adj} house.",
              "{Hhe} was very {trait} and everyone liked {Hhim}.", "{Hhis} best friend was {F}.",
              "{Hhe} had a pet {pet} who was very {trait}.",
              "{Hhe} liked {foods} and {foods} more than anything.", "{Hhe} liked to {handle} {Hhis} {toys}.",
              "Every {time}, {G} was busy {handling} the {things}.",
              "{Hhe} liked to wear {Hhis} {color} {clothes}.",
              "{Hhe} was {trait}, but sometimes {Hhe} was {trait} too."});
  w.paragraph();
}

void search(Composer& w) {
  const int64_t looks = 1 + w.below(3);
  for (int64_t k = 0; k < looks; ++k)
    w.one_of({"{Hhe} looked under the {spot}.", "{Hhe} looked behind the {spot}, but it was not there.",
              "{Hhe} {moved} to the {place} to look.", "{Hhe} searched in the {spot} and near the {nature}.",
              "{Hhe} asked the {animal}, \"Have you seen my {item}?\" The {animal} said no.",
              "{Hhe} checked the {place}, but there was only a {adj} {thing}."});
}

void plot_lost(Composer& w) {
  w.one_of({"One day, {H} could not find {Hhis} {item}.", "One {time}, {H} lost {Hhis} {itemadj} {item}.",
            "When {H} woke up, {Hhis} {item} was gone!",
            "After {Hhe} played in the {place}, {H's} {item} was missing."});
  w.one_of({"{Hhe} felt very {bad}.", "{H} was so {bad} that {Hhe} {reacted}.",
            "{Hhe} {reacted} and looked around."});
  w.one_of({"\"Where is my {item}?\" {H} {said}.", "\"Oh no! My {item} is gone!\" {Hhe} {said}.",
            "\"Can you help me find my {item}?\" {H} asked {F}."});
  search(w);
  w.paragraph();
  w.one_of({"At last, {F} found the {item} under the {spot}.",
            "Then {Hhe} saw something {look} behind the {spot}. It was the {item}!",
            "Suddenly, {F} {moved} over with the {item} in {Fhis} mouth.",
            "Finally, {Hhe} found it in the {place}, next to a {adj} {nature}."});
  w.one_of({"\"Thank you, {F}!\" {H} {said}.", "{H} was so {feeling}. {Hhe} hugged the {item} {adv}.",
            "\"{exclaim}, I found it!\" {Hhe} {said}. {Hhe} felt {feeling} again."});
  w.paragraph();
}

void plot_friend(Composer& w) {
  w.one_of({"One day, {H} went to the {place} and saw a {size} {animal}.", "At the {place0}, {H} met {F}.",
            "One {time}, {H} saw {F} sitting alone by the {spot}.",
            "While {Hhe} was {playing} in the {place}, {H} heard a small voice."});
  w.one_of({"\"{exclaim}! Who are you?\" {H} asked.",
            "\"Hello, my name is {H}. What is your name?\" {Hhe} {said}.",
            "\"Do you want to {play} with me?\" asked {H}.", "\"Why are you {bad}?\" {H} asked {adv}."});
  w.one_of({"\"I am {bad} because I have no friends,\" {F} {said}.",
            "\"I want to {play} too, but I am {bad},\" {said} {F}.",
            "{F} {reacted} and said, \"Yes, please!\"", "\"I lost my way home,\" {F} {said} {adv}."});
  w.paragraph();
  const int64_t rounds = 1 + w.below(2);
  for (int64_t k = 0; k < rounds; ++k)
    w.one_of({"{H} and {F} played {game} in the {place}.",
              "They {moved} to the {nature} and {played} together.", "{H} showed {F} how to {play}.",
              "They shared {Hhis} {foods} and laughed a lot.",
              "{F} taught {H} a {look} new game with a {toy}.",
              "They {played} until they were {bad} and hungry."});
  w.one_of({"\"You are my best friend,\" {F} {said}.", "{H} and {F} became good friends.",
            "\"Can we {play} again tomorrow?\" asked {F}. \"Yes!\" said {H}."});
  w.paragraph();
}

void plot_want(Composer& w) {
  w.one_of({"One day, {H} saw a {adj} {toy} in the {place}.", "{H} wanted a {adj} {snack} very much.",
            "At the store, {H} saw {treat} on a {look} plate.",
            "{H} really wanted to {play} in the {place}, but it was late."});
  w.one_of({"\"Can I have it, please?\" {Hhe} asked {G}.", "\"{Gname}, I want that!\" {H} {said}.",
            "{Hhe} asked {G}, \"Can we go now?\""});
  w.one_of({"\"Not now, {H}. We have to wait,\" {G} said.", "\"You have to share with {F},\" said {G}.",
            "\"First you must help me {handle} the {thing},\" {G} said.",
            "{G} smiled and said, \"Let us see.\""});
  w.one_of({"{H} felt {bad}, but {Hhe} waited {adv}.", "{H} {reacted}. {Hhe} did not want to wait.",
            "{H} helped {G} {handle} the {thing} {adv}.", "{H} thought for a moment and then {reacted}."});
  w.paragraph();
  w.one_of({"Later, {G} gave {H} the {snack}, and {Hhe} shared it with {F}.",
            "In the end, {H} and {F} shared the {toy}.",
            "When {Hhe} was done, {G} said, \"You were very {trait}. Here you go!\"",
            "{H} learned that waiting can be {look}, and {Hhe} got a {adj} {treat}."});
  w.paragraph();
}

void plot_explore(Composer& w) {
  w.one_of({"One {weather} day, {H} went to the {place0} with {F}.", "{H} wanted to explore the {place}.",
            "One {time}, {H} and {G} went on a trip to the {place}.",
            "{H} {moved} down the path to the {place0}."});
  const int64_t sights = 2 + w.below(3);
  for (int64_t k = 0; k < sights; ++k)
    w.one_of({"{Hhe} saw a {size} {animal} {moving} near the {nature}.",
              "There were {adj} {natures} everywhere.",
              "{Hhe} found a {look} {nature} and put it in {Hhis} pocket.",
              "{Hhe} heard a {sound} and {reacted}.", "A {color} {animal} {moved} past {Hhim}.",
              "{Hhe} picked a {color} {nature} for {G}.", "{Hhe} {moved} over a {look} {nature} and laughed.",
              "The {natures} were {adj} and the air smelled {look}."});
  w.one_of({"Then the sky turned {color} and it started to rain.", "Soon it was time to go home.",
            "Then the wind began to blow, and it got {weather}.",
            "After a while, {H} felt {bad} and wanted to go home."});
  w.one_of({"{Hhe} {moved} home {adv}.", "They went back home and ate {foods} for dinner.",
            "{G} held {Hhis} hand and they walked home together.",
            "{H} told {G} all about the {look} {animal}."});
  w.paragraph();
}

void plot_accident(Composer& w) {
  w.one_of({"One day, {H} was {playing} in the {place} when {Hhe} fell down.",
            "{H} {moved} too fast and tripped over a {thing}.",
            "While {Hhe} was {playing}, {H} dropped {Hhis} {item} and it broke.",
            "{H} climbed up the {spot}, but {Hhe} slipped."});
  w.one_of({"{Hhe} hurt {Hhis} {body} and started to cry.", "\"Ouch!\" {H} cried. {Hhis} {body} hurt.",
            "{Hhe} was very {bad}. The {item} was {state}.",
            "{H} {reacted}. {Hhe} did not know what to do."});
  w.one_of({"{G} came {adv} and gave {Hhim} a big hug.", "{F} {moved} over and said, \"Are you okay?\"",
            "{G} looked at the {item} and said, \"I can fix it.\"", "{F} helped {Hhim} get up."});
  w.one_of({"Soon {H} felt better.", "{G} put a {color} bandage on {Hhis} {body}.",
            "{G} fixed the {item} with some tape and glue.",
            "They sat on the {spot} and ate some {foods} until {Hhe} felt {feeling}."});
  w.one_of({"\"Be careful next time,\" {G} said.", "\"Thank you,\" {H} {said} with a smile.",
            "{H} was {feeling} again."});
  w.paragraph();
}

void plot_make(Composer& w) {
  w.one_of({"One {time}, {H} and {G} decided to bake a {food} pie.",
            "{H} wanted to build a {size} {toy} out of boxes.", "{H} and {F} wanted to make a gift for {G}.",
            "{H} decided to paint a picture of a {animal}."});
  const int64_t steps = 2 + w.below(3);
  for (int64_t k = 0; k < steps; ++k)
    w.one_of({"First, they got a {adj} {thing}.", "{Hhe} used {color} paint and lots of glue.",
              "They mixed {foods} and {foods} in a big bowl.", "{F} {handled} the {thing} {adv}.",
              "{H} added a {look} {nature} on top.", "It was hard work, but {H} did not give up.",
              "They put it in the oven and waited.", "{Hhe} made it {color} and {look}."});
  w.one_of({"When it was done, it looked {look}.", "\"{exclaim}! It is so {look}!\" said {F}.",
            "{G} {reacted} and said, \"This is the best {thing} ever!\"",
            "At the end, they had a {size} {look} {toy}."});
  w.one_of({"They shared it with everyone in the {place}.", "{H} felt very {feeling}.",
            "Everyone said it was {look}."});
  w.paragraph();
}

void plot_fear(Composer& w) {
  w.one_of({"One night, {H} heard a loud {sound} outside.", "{H} was afraid of the dark {place}.",
            "In the {time}, {H} saw a {size} shadow on the wall.",
            "{H} heard a strange {sound} from the {spot}."});
  w.one_of({"{Hhe} was very scared and hid under {Hhis} blanket.", "\"Who is there?\" {H} whispered.",
            "{Hhe} {reacted} and called for {G}.", "{H's} heart went {sound}, {sound}!"});
  w.one_of({"{G} came with a {color} lamp.", "{H} was brave and looked out the window.",
            "{F} said, \"Let us look together.\"", "{H} took a deep breath and {moved} to the {spot}."});
  w.one_of({"It was just a {size} {animal} looking for {foods}!",
            "It was only the wind moving the {natures}.", "It was {F}, who wanted to {play}!",
            "It was just {Hhis} {item}, which had fallen off the {spot}."});
  w.one_of({"{H} laughed and was not scared anymore.", "\"{exclaim}, you scared me!\" {H} {said}.",
            "{Hhe} gave the {animal} some {foods} and went back to bed."});
  w.paragraph();
}

void plot_help(Composer& w) {
  w.one_of({"One day, {H} found a {size} {animal} with a hurt {body}.",
            "On the way to the {place}, {H} saw a {animal} stuck in a {nature}.",
            "{H} saw that {F} could not reach the {thing} on the {spot}.",
            "{H} found a baby {animal} all alone by the {nature}."});
  w.one_of({"\"Do not worry, I will help you,\" {H} {said}.", "{H} knew {Hhe} had to help.",
            "{Hhe} {moved} over {adv}."});
  w.one_of({"{Hhe} took it home and gave it {foods} and water.", "{Hhe} used a {thing} to get it down.",
            "{H} and {G} made a {adj} bed for it in a box.",
            "{Hhe} gently lifted it and carried it to {G}."});
  w.one_of({"After a few days, the {animal} was strong again.", "Soon it could {move} again.",
            "The {animal} said, \"Thank you, {H}!\""});
  w.one_of({"{H} felt {feeling} because {Hhe} helped.",
            "From then on, the {animal} came to visit {H} every {time}.",
            "{Hhe} waved goodbye as it {moved} away."});
  w.paragraph();
}

void plot_game(Composer& w) {
  w.one_of({"One {time}, {H} and {F} played {game} in the {place}.",
            "{H} and {Hhis} friends had a race to the {nature}.",
            "The kids in the {place} wanted to play {game}.",
            "{F} asked {H}, \"Do you want to play {game}?\""});
  w.one_of({"{F} was very fast, but {H} was {trait} and did not give up.",
            "{H} hid behind a {spot} and {F} looked everywhere.", "They {moved} and laughed all the way.",
            "{H} wanted to win very much."});
  w.one_of({"{F} won, and {H} felt {bad}.", "{H} won, but {F} fell down.", "Nobody could find {H}!",
            "They both reached the {nature} at the same time."});
  w.one_of({"{H} said, \"Good job!\" and gave {F} a hug.", "{H} helped {F} up, and they played again.",
            "\"Found you!\" {F} {said}, and they both laughed.", "\"Let us play again!\" said {H}."});
  w.paragraph();
}

void plot_party(Composer& w) {
  w.one_of({"It was {F's} birthday, and {H} wanted to give {Fhim} a gift.",
            "{G} said, \"Today we will have a party!\"", "One {time}, {H} got a letter. It was from {F}!",
            "There was a {look} party at the {place}."});
  w.one_of({"{H} made a card with {color} paper.", "{H} found a {look} {toy} to give as a present.",
            "{Hhe} wrapped the gift in a {color} ribbon.", "They put {color} balloons everywhere."});
  w.one_of({"Everyone came and ate {treat} and {food}.", "They sang songs and danced to the music.",
            "There was a {size} cake with {color} candles.", "They played {game} and laughed a lot."});
  w.one_of({"{F} opened the gift and {reacted}. \"I love it!\"", "It was the best party ever.",
            "{H} felt {feeling} and {feeling}."});
  w.paragraph();
}

void plot_weather(Composer& w) {
  w.one_of({"One day, {H} wanted to {fun} outside, but it was {weather}.",
            "{H} looked out the window. It was very {weather}.",
            "{H} and {F} planned a picnic in the {place}, but dark clouds came."});
  w.one_of({"\"I am so {bad},\" {H} {said}. \"Now we cannot {play}.\"",
            "{H} sat by the window and {reacted}.", "{G} said, \"We can have fun inside too.\""});
  w.one_of({"They built a fort with {things} and {things}.", "They played {game} in the living room.",
            "{G} read them a story about a {trait} {animal}.", "They made {treat} in the kitchen."});
  w.one_of({"Later, the sun came out and they {moved} outside.", "It was a {look} day after all.",
            "{H} forgot all about the rain."});
  w.paragraph();
}

void plot_chores(Composer& w) {
  w.one_of({"One {time}, {G} asked {H} to help clean the {place0}.",
            "The {place0} was very messy, and {G} looked {bad}.",
            "{H} wanted to surprise {G} by cleaning the {place}."});
  const int64_t jobs = 2 + w.below(3);
  for (int64_t k = 0; k < jobs; ++k)
    w.one_of({"{Hhe} {handled} the {things} {adv}.", "{F} helped {Hhim} {handle} the {thing}.",
              "Then {Hhe} had to {handle} the {things} and {handle} the {thing}.",
              "{Hhe} found an old {toy} under the {spot}.", "{Hhe} put the {toys} back on the shelf.",
              "{Hhe} was {handling} the {thing} when {Hhe} heard a {sound}."});
  w.one_of({"When {G} saw the {place0}, {G} {reacted}.", "Soon everything was {look} and {look}.",
            "It took a long time, but it was worth it."});
  w.one_of({"\"You are such a {trait} helper!\" {G} {said}.", "{G} gave {H} a {treat} to say thank you.",
            "{H} felt {feeling} and proud."});
  w.paragraph();
}

void plot_visit(Composer& w) {
  w.one_of({"One {weather} {time}, {H} and {G} went to visit {Hhis} grandma.",
            "{H} went to the {place} by {toy} with {F}.",
            "{G} took {H} to see the {animals} at the {place}."});
  const int64_t sights = 2 + w.below(2);
  for (int64_t k = 0; k < sights; ++k)
    w.one_of({"There were {size} {animals} and {color} {animals}.",
              "A {trait} {job} showed them how to {handle} a {thing}.", "They ate {foods} and drank {treat}.",
              "{H} saw {animals} {moving} by the {nature}.",
              "{Hhe} bought a {look} {thing} with {Hhis} {color} coins.",
              "{Hhe} {handled} a {thing} for the first time."});
  w.one_of({"On the way home, {H} fell asleep in the car.", "{H} said, \"Can we come back tomorrow?\"",
            "It was a {look} trip, and {H} told everyone about it."});
  w.paragraph();
}

void plot_dream(Composer& w) {
  w.one_of({"{H} wanted to be a {job} when {Hhe} grew up.", "One night, {H} dreamed {Hhe} was a {job}.",
            "{H} saw a {job} in the {place} and wanted to be just like that."});
  w.one_of({"{Hhe} practiced every day with {Hhis} {item}.", "{Hhe} told {F}, \"One day I will be a {job}!\"",
            "{Hhe} put on a {color} {clothes} and pretended."});
  w.one_of({"{F} laughed, but {H} did not give up.", "{G} said, \"If you work hard, you can do it.\"",
            "{Hhe} tried again and again."});
  w.paragraph();
}

void ending(Composer& w) {
  w.one_of({"From that day on, {H} and {F} were best friends.", "{H} learned that sharing is a good thing.",
            "{H} learned to always be kind to others.", "{H} learned that being brave is not so hard.",
            "{Hhe} knew that friends always help each other.", "And they all lived happily ever after.",
            "{H} went to bed with a big smile on {Hhis} face.", "It was the best day ever.",
            "{H} and {F} {played} together until the sun went down.",
            "{Hhe} hugged {G} and said, \"I love you.\"",
            "{H} was {feeling}, and {Hhe} never forgot that day.", "The end."});
}

void write_story(Composer& w) {
  using Plot = void (*)(Composer&);
  static const Plot plots[] = {plot_lost,    plot_friend, plot_want,   plot_explore, plot_accident,
                               plot_make,    plot_fear,   plot_help,   plot_game,    plot_party,
                               plot_weather, plot_dream,  plot_chores, plot_visit};
  constexpr int64_t count = sizeof(plots) / sizeof(plots[0]);
  w.begin_story();
  opening(w);
  const int64_t n = 1 + w.below(3);
  for (int64_t k = 0; k < n; ++k) plots[w.below(count)](w);
  ending(w);
  w.end_story();
}
}  // namespace

std::string generate_stories(uint64_t seed, int64_t min_bytes) {
  TF_CHECK(min_bytes >= 0, "story grammar: the size must not be negative, got ", min_bytes);
  Rng rng(seed);
  Composer w(rng);
  w.text().reserve(static_cast<size_t>(min_bytes) + 4096);
  while (static_cast<int64_t>(w.text().size()) < min_bytes) write_story(w);
  return std::move(w.text());
}

}  // namespace tf
