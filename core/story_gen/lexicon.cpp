#include "story_gen/lexicon.hpp"

#include <map>
#include <sstream>

namespace tf::story_gen {

namespace {
WordList split(const char* words) {
  std::istringstream in(words);
  WordList out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

Lexicon make_lexicon() {
  Lexicon x;
  x.girl_names = split(
      "Lily Mia Sara Anna Emma Zoe Lucy Ella Rosa Nora Ruby Hannah Ivy Maya Clara Daisy Grace Molly Poppy "
      "Amy Kate Jenny Lola Nina Olive Penny Rita Stella Tessa Vera Wendy Alice Bella Cora Dina Elsie Fiona "
      "Gemma Hazel Iris Jade June Kira Lena Mabel Nell Opal Pia Rae Sadie Tilly Una Violet Willa Yara "
      "Zelda Ada Bea Cleo Dot Eve Fern Greta Hope Isla Joy Lark Meg Nia Abby Beth Carly Daphne Edith Flora "
      "Gwen Holly Jill Kay Lottie Martha Nadia Olga Paige Rhea Suzy Thea Uma Winnie");
  x.boy_names = split(
      "Tom Ben Max Sam Leo Jack Tim Finn Oscar Noah Eli Hugo Jake Luke Milo Owen Pete Ray Toby Zack Adam "
      "Billy Carl Danny Eddie Felix Gus Henry Ian Jonas Kai Liam Marco Ned Otto Paul Quinn Rex Seth Theo "
      "Vince Will Abe Bruno Cody Dex Emil Fred Gabe Hank Igor Joel Kurt Lars Mick Nico Omar Perry Rudy Sid "
      "Ted Ugo Wes Alfie Bert Cal Drew Ezra Flint Glen Ari Barney Chip Duke Eric Frank Grant Harvey Ivan "
      "Jasper Kevin Lenny Moe Norman Ollie Pablo Ross Stan Tony Victor");
  x.animals = split(
      "dog cat bunny bird bear duck puppy kitten frog fox mouse owl fish squirrel rabbit lion pig cow "
      "horse elephant monkey turtle butterfly bee deer sheep goat chicken hen tiger giraffe zebra penguin "
      "dolphin whale snail ladybug ant spider snake crab octopus seal otter beaver raccoon hedgehog koala "
      "panda kangaroo donkey pony lamb goose swan parrot robin crow eagle hawk bat worm caterpillar "
      "dragonfly firefly lizard dinosaur dragon unicorn hamster camel llama moose wolf badger mole shark "
      "jellyfish starfish seahorse beetle cricket grasshopper rooster duckling chick calf cub bug toad "
      "gecko flamingo peacock ostrich pelican walrus sloth hippo rhino gorilla cheetah leopard panther "
      "squid lobster clam oyster ferret gerbil mule buffalo bison yak reindeer skunk possum chipmunk "
      "weasel vulture pigeon sparrow owlet kitty doggy piglet foal wren heron stork crane toucan");
  x.grown_ups = split("mom dad grandma grandpa mommy daddy aunt uncle nanny granny");
  x.toys = split(
      "ball kite doll car truck teddy train robot balloon puzzle block boat drum top yoyo whistle bucket "
      "shovel crayon marble rocket plane bike wagon swing slide puppet kazoo hoop scooter skateboard book "
      "picture sticker bubble crown wand cape mask ribbon bell flute guitar piano trumpet xylophone rattle "
      "sailboat tractor helicopter castle fort tent sled spinner magnet compass telescope camera "
      "flashlight badge medal trophy card bead button pinwheel slinky frisbee dollhouse tambourine "
      "harmonica violin banjo bugle maraca cowbell tricycle unicycle paddle racket bat glider parachute "
      "submarine spaceship bulldozer digger crane lorry");
  x.things = split(
      "box hat bag cup bowl plate spoon fork blanket pillow chair table bed door window shoe sock coat "
      "scarf mitten glove boot dress shirt jacket umbrella basket bottle jar lamp clock key map letter "
      "note gift present rope string brush comb towel soap sponge bench fence gate ladder bucket pot pan "
      "oven sink mirror rug curtain shelf drawer closet sofa cushion backpack lunchbox pencil paper paint "
      "glue tape scissors ring necklace bracelet watch wallet coin stamp envelope candle lantern bell "
      "whistle hammer nail saw wheel cart barrow hose fan radio phone computer cookbook recipe apron "
      "napkin tray cupboard bathtub pillowcase quilt sweater boot raincoat basket broom mop vase pitcher "
      "teapot kettle ladle whisk sieve bucket trowel rake wheelbarrow shovel sack crate barrel cushion "
      "hammock blanket bookshelf bookcase desk stool wardrobe chimney fireplace doormat mailbox doorbell "
      "railing windowsill pillowcase headband slipper sandal bib diaper helmet");
  x.foods = split(
      "cake cookie apple banana sandwich soup pie candy bread cheese milk juice carrot orange strawberry "
      "cupcake pizza popsicle honey jam muffin pancake egg grape cherry pear peach plum lemon melon berry "
      "blueberry popcorn cracker pretzel noodle rice bean pea corn potato tomato cucumber lettuce pumpkin "
      "nut acorn seed biscuit waffle donut lollipop chocolate toast butter yogurt salad carrot broccoli "
      "spinach mango pineapple coconut watermelon raspberry cereal oatmeal bagel burrito taco sausage "
      "meatball dumpling noodles porridge custard pudding jelly marshmallow gingerbread pastry croissant "
      "scone brownie sprinkles syrup gravy stew pickle olive radish turnip beet zucchini apricot fig kiwi "
      "lime");
  x.places = split(
      "park garden forest beach yard house school farm lake river pond zoo store shop playground kitchen "
      "field meadow hill mountain jungle town city village castle cave island library bakery market barn "
      "backyard street road bridge tower museum circus fair beach harbor valley desert swamp orchard "
      "treehouse attic basement classroom hospital station airport ocean sea woods lighthouse windmill "
      "greenhouse playroom bedroom bathroom garage porch balcony rooftop cottage palace igloo burrow den "
      "hive nest stable pasture vineyard creek canyon glacier prairie volcano");
  x.spots = split(
      "bed table chair tree bush rock box couch sofa blanket bench fence door basket pillow leaf log "
      "bucket stairs shelf car truck rug flowerpot mailbox doghouse tent wagon slide swing desk hedge "
      "stump bridge puddle sandbox closet cupboard curtain drawer");
  x.nature = split(
      "tree flower cloud leaf rock stick shell star puddle stone feather nest branch bush petal seed wave "
      "hill path trail log pebble sunflower rose daisy tulip mushroom pinecone acorn stream waterfall "
      "icicle snowflake snowman web berry vine root trunk meadow pine oak maple willow birch clover "
      "dandelion daisy lily moss fern weed thorn pond lake cliff boulder cave hole shore dune tide sunbeam "
      "raindrop hailstone frost ice");
  x.body_parts = split(
      "hand head nose eye ear foot leg arm tail wing paw toe finger knee tummy mouth cheek hair face back "
      "neck shoulder elbow chin beak whisker");
  x.sizes = split("big little small tiny huge tall long short giant round wide thin fat deep high low");
  x.colors = split(
      "red blue green yellow pink purple orange white black brown gray golden silver rainbow spotted "
      "striped dark bright pale violet crimson turquoise lavender beige peach mint navy scarlet amber");
  x.looks = split(
      "pretty shiny soft fluffy beautiful new old special colorful sparkly smooth bumpy furry fuzzy warm "
      "cold wet dry clean dirty sticky sweet yummy tasty juicy crunchy loud quiet noisy fast slow heavy "
      "light strong funny strange magic secret hidden lovely fancy wonderful amazing fine nice cozy gentle "
      "tidy messy shaggy slippery crispy fresh ripe spicy salty sour muddy dusty rusty wooden plastic "
      "paper glass metal velvet woolly silky tiny sleek glowing twinkly enormous little plain ordinary "
      "broken bumpy lumpy twisty curly straight pointy sharp dull shimmery glittery speckled patchy chubby "
      "skinny tall fluffy crinkly squishy bouncy creaky rickety wobbly sturdy cheery gloomy spooky dreamy "
      "sleepy snug roomy tiny");
  x.traits = split(
      "kind brave shy curious friendly silly clever happy smart helpful gentle playful quiet loud proud "
      "busy lazy grumpy naughty polite honest careful careless bossy cheerful clumsy generous greedy jolly "
      "lonely lucky patient rude sleepy stubborn sweet thoughtful wise wild young old tiny bold calm eager "
      "fearless fierce fussy giggly humble mighty nosy picky bouncy timid cheeky daring dreamy friendly "
      "gentle grouchy hasty jumpy kindhearted loyal merry modest noisy peppy plucky quirky sassy sensible "
      "sneaky spunky steady sunny tender trusty zany");
  x.feelings = split(
      "happy glad excited proud surprised amazed thankful calm safe cozy joyful hopeful brave curious "
      "relieved cheerful pleased delighted grateful silly sleepy hungry thirsty warm eager peaceful "
      "cheerful content lucky loved");
  x.bad_feelings = split(
      "sad scared angry upset worried lonely tired mad sorry afraid nervous grumpy bored confused "
      "frightened jealous shy embarrassed cross disappointed hurt sick cold wet grouchy cranky gloomy lost "
      "homesick worried");
  x.weathers = split("sunny rainy windy snowy cloudy warm cold hot foggy stormy bright chilly");
  x.states = split(
      "broken lost stuck dirty torn wet flat empty missing gone hidden tangled bent cracked muddy melted "
      "spilled squashed sticky ripped loose");
  x.play_verbs = split(
      "play dance sing run jump swim paint draw read climb explore bake skip hop laugh giggle rest nap "
      "listen learn count fly slide swing spin twirl splash dig race roll wiggle whistle clap hum search "
      "build cook garden fish camp hike sail skate ski march stretch tumble wander dream pretend practice "
      "glide bounce crawl juggle doodle knit whittle sketch bowl surf row canoe yodel tap somersault "
      "cartwheel leap prance skip frolic giggle paddle splash scribble");
  x.handle_verbs = split(
      "find hold carry hug kick throw catch push pull fix clean wash share hide drop open close fill paint "
      "draw make build bring take find keep lift shake squeeze touch feed visit help watch follow chase "
      "need want love like see hear smell taste try borrow return give show pick buy sell wrap decorate "
      "polish fold stack sort count collect trade lend toss bounce roll tickle pat brush plant water grow "
      "save rescue guard mend sew stir mix pour cut bake wear use miss call ask thank invite grab hug dust "
      "sweep scrub rinse dry iron hang tie untie button zip unzip peel slice chop crack squash crush pinch "
      "poke nudge drag haul tug lug balance juggle spin twist bend stretch measure weigh pack unpack "
      "repair glue tape staple");
  x.move_verbs = split(
      "walk run hurry skip hop race dash march tiptoe crawl climb wander stroll rush zoom jog waddle slide "
      "jump fly swim ride roll scamper trot gallop paddle sneak stomp zip scurry stumble wobble shuffle "
      "slither flutter soar dive creep leap bounce amble plod stride limp sprint");
  x.say_verbs = split(
      "said asked shouted whispered yelled cried laughed replied called answered smiled giggled sighed "
      "cheered squeaked gasped added explained told begged promised mumbled sang barked roared chirped "
      "grumbled exclaimed wondered agreed muttered squealed howled hooted whimpered sobbed chuckled "
      "snapped suggested shrieked");
  x.react_verbs = split(
      "smiled laughed cried nodded giggled frowned sighed grinned gasped jumped clapped cheered shouted "
      "waved blinked shivered yawned danced listened wondered thought sniffed sneezed blushed shrugged "
      "stared paused winked frowned pouted giggled beamed hiccuped trembled grumbled chuckled sobbed");
  x.adverbs = split(
      "happily quickly slowly carefully quietly loudly softly gently sadly bravely kindly proudly "
      "excitedly nervously eagerly patiently safely brightly warmly tightly politely closely busily lazily "
      "sleepily merrily cheerfully calmly boldly shyly playfully silently swiftly neatly");
  x.times = split(
      "morning afternoon evening night day week summer winter spring autumn weekend holiday birthday "
      "lunchtime bedtime dinnertime sunrise sunset");
  x.sounds = split(
      "boom bang splash crash pop thump buzz whoosh ding crack squeak honk woof meow quack tweet moo oink "
      "roar hiss ring knock creak drip rustle");
  x.exclaims = split("wow oh yay hooray oops look yes no hello hi please thanks ouch uh yuck hey bye");
  x.games = split(
      "tag catch hopscotch chase soccer hide race ball house pirates dress cards checkers marbles tea "
      "puzzles blocks ninjas");
  x.jobs = split(
      "teacher doctor farmer baker painter singer dancer pilot firefighter astronaut builder chef vet "
      "driver sailor artist explorer scientist neighbor mailman librarian gardener fisherman coach nurse "
      "captain queen king wizard clown magician dentist plumber zookeeper ranger");
  x.clothes = split(
      "hat scarf coat dress shirt sock boot glove mitten sweater jacket raincoat apron cape crown helmet "
      "headband sandal slipper bib skirt vest bow tie belt cap hood bonnet");
  x.treats = split("cake cookies pie candy popsicles cupcakes muffins pancakes lemonade cocoa popcorn");
  return x;
}

const std::map<std::string, std::string>& irregular_past() {
  static const std::map<std::string, std::string> table = {
      {"run", "ran"},       {"see", "saw"},      {"go", "went"},      {"eat", "ate"},
      {"drink", "drank"},   {"sing", "sang"},    {"swim", "swam"},    {"sit", "sat"},
      {"get", "got"},       {"make", "made"},    {"take", "took"},    {"give", "gave"},
      {"find", "found"},    {"say", "said"},     {"tell", "told"},    {"think", "thought"},
      {"bring", "brought"}, {"buy", "bought"},   {"catch", "caught"}, {"teach", "taught"},
      {"feel", "felt"},     {"keep", "kept"},    {"sleep", "slept"},  {"leave", "left"},
      {"meet", "met"},      {"hold", "held"},    {"build", "built"},  {"send", "sent"},
      {"spend", "spent"},   {"lose", "lost"},    {"hear", "heard"},   {"fly", "flew"},
      {"draw", "drew"},     {"grow", "grew"},    {"throw", "threw"},  {"know", "knew"},
      {"blow", "blew"},     {"fall", "fell"},    {"hide", "hid"},     {"ride", "rode"},
      {"write", "wrote"},   {"wake", "woke"},    {"break", "broke"},  {"speak", "spoke"},
      {"choose", "chose"},  {"freeze", "froze"}, {"shake", "shook"},  {"win", "won"},
      {"begin", "began"},   {"ring", "rang"},    {"stand", "stood"},  {"dig", "dug"},
      {"hang", "hung"},     {"spin", "spun"},    {"swing", "swung"},  {"slide", "slid"},
      {"bite", "bit"},      {"hit", "hit"},      {"cut", "cut"},      {"put", "put"},
      {"let", "let"},       {"read", "read"},    {"feed", "fed"},     {"lead", "led"},
      {"come", "came"},     {"wear", "wore"},    {"tear", "tore"},    {"drive", "drove"},
      {"sell", "sold"},     {"lend", "lent"},    {"sew", "sewed"},    {"mend", "mended"},
      {"have", "had"},      {"do", "did"},       {"sweep", "swept"},  {"weep", "wept"},
      {"creep", "crept"},   {"shine", "shone"},  {"toss", "tossed"}};
  return table;
}

bool is_vowel(char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }

int vowel_groups(const std::string& w) {
  int groups = 0;
  for (size_t i = 0; i < w.size(); ++i)
    if (is_vowel(w[i]) && (i == 0 || !is_vowel(w[i - 1]))) ++groups;
  return groups;
}

// "stop" -> "stopp": one syllable ending consonant, vowel, consonant doubles its last letter.
bool doubles_last(const std::string& w) {
  const size_t n = w.size();
  if (n < 3 || vowel_groups(w) != 1) return false;
  const char last = w[n - 1];
  return !is_vowel(last) && last != 'w' && last != 'x' && last != 'y' && is_vowel(w[n - 2]) &&
         !is_vowel(w[n - 3]);
}

bool ends_with(const std::string& w, const char* tail) {
  const std::string t(tail);
  return w.size() >= t.size() && w.compare(w.size() - t.size(), t.size(), t) == 0;
}
}  // namespace

const Lexicon& lexicon() {
  static const Lexicon x = make_lexicon();
  return x;
}

std::string plural(const std::string& noun) {
  static const std::map<std::string, std::string> irregular = {
      {"mouse", "mice"},      {"goose", "geese"},     {"sheep", "sheep"},       {"fish", "fish"},
      {"deer", "deer"},       {"foot", "feet"},       {"tooth", "teeth"},       {"leaf", "leaves"},
      {"wolf", "wolves"},     {"loaf", "loaves"},     {"child", "children"},    {"person", "people"},
      {"potato", "potatoes"}, {"tomato", "tomatoes"}, {"scissors", "scissors"}, {"moose", "moose"},
      {"calf", "calves"},     {"shelf", "shelves"},   {"scarf", "scarves"},     {"octopus", "octopuses"},
      {"cactus", "cacti"}};
  auto it = irregular.find(noun);
  if (it != irregular.end()) return it->second;
  if (ends_with(noun, "s") || ends_with(noun, "x") || ends_with(noun, "z") || ends_with(noun, "ch") ||
      ends_with(noun, "sh"))
    return noun + "es";
  if (noun.size() > 1 && noun.back() == 'y' && !is_vowel(noun[noun.size() - 2]))
    return noun.substr(0, noun.size() - 1) + "ies";
  return noun + "s";
}

std::string past(const std::string& verb) {
  auto it = irregular_past().find(verb);
  if (it != irregular_past().end()) return it->second;
  if (verb.back() == 'e') return verb + "d";
  if (verb.size() > 1 && verb.back() == 'y' && !is_vowel(verb[verb.size() - 2]))
    return verb.substr(0, verb.size() - 1) + "ied";
  if (doubles_last(verb)) return verb + verb.back() + "ed";
  return verb + "ed";
}

std::string ing(const std::string& verb) {
  if (verb == "see" || verb == "flee" || verb == "be") return verb + "ing";
  if (ends_with(verb, "ie")) return verb.substr(0, verb.size() - 2) + "ying";
  // Silent e goes ("dance" -> "dancing", "rescue" -> "rescuing") but not in "ee", "oe", "ye".
  const char before = verb.size() > 1 ? verb[verb.size() - 2] : ' ';
  if (verb.back() == 'e' && before != 'e' && before != 'o' && before != 'y')
    return verb.substr(0, verb.size() - 1) + "ing";
  if (doubles_last(verb)) return verb + verb.back() + "ing";
  return verb + "ing";
}

}  // namespace tf::story_gen
