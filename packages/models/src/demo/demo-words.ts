/**
 * The word lists behind the demo model's vocabulary (demo-vocabulary.ts). Lower case; each word
 * is also a token in capitalised form. Changing a list changes the demo model's bytes, so
 * DEMO_MODEL_VERSION (demo-model.ts) goes up with it.
 */

/**
 * Function words: tokens whose vectors carry no meaning, so "a", "at" or "the" shared by two
 * texts does not make them close.
 */
export const STOP_WORDS: readonly string[] = (
  "a about above after again against all am an and any are as at be because been before being " +
  "below between both but by can could did do does doing down during each few for from further " +
  "had has have having he her here hers herself him himself his how i if in into is it its " +
  "itself just me more most my myself no nor not of off on once only or other our ours " +
  "ourselves out over own same she should so some such than that the their theirs them " +
  "themselves then there these they this those through to too under until up very was we were " +
  "what when where which while who whom whose why will with would you your yours yourself"
).split(" ");

/** Every word of the summaries in the vectors package's sample (packages/vectors/data). */
export const SAMPLE_WORDS: readonly string[] = (
  "a abbey about absurd accumulation accused across act advances affair afghanistan after " +
  "against age ages aging alabama algiers alien america an ancient and animals answers argues " +
  "aristocratic arrested arrive art artificial as ashen asteroid at atone authority avoiding " +
  "back background band bang bank battle battling beach bear beautiful become becomes before " +
  "begins beloved benefactor bengal best betrayed betraying between beyond biases big biologist " +
  "birds black boarding body bomber bond books bored born boy brings brooding buendia building " +
  "buried burn burned but butler by california calm came can captain case catch cavalry change " +
  "character charge charming chase chases childlike children chinese chivalry civil clerk clever " +
  "closest collapse colonial come comfort commander commits companion companions computer " +
  "concerned conspiracy consumed convict cook country creature crew crime cruelty cuban cultured " +
  "curious cut dark daughter days deaths debt decades deception defend deliberate demolished " +
  "depression describes desert despair desperate destroy detached devoted discipline discovering " +
  "discovers doctor documents dog domestic dominate down dragon dream dresden drifts driven " +
  "drives drought during dutch duty dwarves each earth emotionally emperor empire employer " +
  "ending engineered england english englishman entangled environmental envoy escape escaped " +
  "escapes especially every everything everywhere evidence evolutionary exiled expelled explains " +
  "exploration exposing faces facts fall falls falsely families family far farm farmers farming " +
  "fast father few fierce fights finds firebombing fireman first fish fisherman fixed flees " +
  "floating flying follies follow follows for forbidden forced foresees formal former fortune " +
  "foundling france franciscan french frenchman friar friend friends from frozen furious future " +
  "galactic galaxy generations genes gentility gentleman giant giants gifted girl give gods gold " +
  "governess grew guarding guards guilt gulf hacker hands happiness harlem has haunted have he " +
  "heir her hidden high him himself hired his historian history hobbit holds hole holes home " +
  "hope hopes horses hour house household how human hunt hunts husband ice idealistic igbo " +
  "impossible impressions imprisoned in includes independence india individuals inspector " +
  "intelligences into intuitive invasion investigate investigator is island it italian its job " +
  "joins journey justify kabul keeping kills kind king knight labyrinthine land lands last later " +
  "lavish lawyer leader leads learns led left leg legged library life lifeboat linked live lives " +
  "logic london lonely long lord loss lost love loved loving luxury made magical make maker " +
  "makes man many map marine market marlin marriage married mathematician mathematics means " +
  "meets migrant millionaire mind minds misjudge missionaries missions modes moments monsters " +
  "monstrous months more morning mortality most motoring mountain movement moves murders music " +
  "must mysterious name napoleon narrator natural naturalist nature never new no noble " +
  "noblewoman nonsense notes novice obsession of off officer ohio oklahoma on once one only " +
  "order ordinary orphan orphaned other out outside over own owning pacific painted paradigm " +
  "paris parties party passionate patchwork patient pawnbroker peasant people pesticide " +
  "petersburg phoniness physicist pilot pirate plan planet planets playful point poisoning " +
  "police politician politics poor portrait possible power powerful practical prep preparation " +
  "presents price prince private produces professor proud provincial psychologist pull pulled " +
  "purpose pursued queen quest questioned questions quick rabbit raised ranch rather read " +
  "readers real really receives reclaim recognition records reference reflects refuses " +
  "relentless relives remade remote replaced rescued residents respect rest restless return " +
  "returns revenge revolt revolution rewrites rides rigid ring rise risks roman romance rose " +
  "ruin rule rules ruling russian sacrifice sailor sails saint scholars school science " +
  "scientist scornful sea search secluded second seconds secret see sees selection self serves " +
  "service set sets seven several sex shadow share shared sharks she shifts ship shipwreck " +
  "shipwrecked shorten sister slavery sled slow slowly small society soldier son south sparking " +
  "species spends spirit spraying squire stability starving state states stays steady stoic " +
  "stolen stop stories stranded strangers stream string stroke strong student substance sudden " +
  "surgeon surveillance survived survives swallows sweeping systems take takes tales taliban " +
  "talking teaches teenage teenager telepathically tells ten terrible tested than that the their " +
  "them then theocracy they thirteen thought through throws tiger time tiny to together too took " +
  "tormented town trade transylvanian trapped travel treasure treatise trial trick tries trip " +
  "troy trust turns two under understand understood united universe unknown unleashes unstuck " +
  "until up upheaval valuable vampire victories view village violence visits voyage walk wanders " +
  "war was washed watches way wealthy weaves were whale whaling what when while white who whole " +
  "whose widespread wife wild will winning wise with without witted wizard woman work world " +
  "wrestler wrongly years york young youthful yukon"
).split(" ");

/** Common English nouns, verbs and adjectives, so everyday queries meet whole-word tokens. */
export const COMMON_WORDS: readonly string[] = (
  "able accident across act action actor adventure afraid age air alive alone amazing angel " +
  "anger angry animal answer apple army arrow art artist attack aunt autumn baby bad ball bank " +
  "bar battle beach bear beast beautiful bed bell bird birth black blood blue boat body bone " +
  "book border born boss bottle box boy brain brave bread bride bridge brother brown build " +
  "burn bus business buy cake call camp car card care castle cat cave chair change chase cheap " +
  "child choice church city class clean clock close cloud coast coat cold color cook cool corn " +
  "country courage court cousin cow crash crazy crime cross crowd cry cup dance danger dark " +
  "daughter dead death decide deep deer desert detective die dinner doctor dog door dragon " +
  "draw dream dress drink drive drop dry duck dust eagle early earth east eat egg empty enemy " +
  "escape evening evil eye face fail fair faith fall false family famous farm fast father fear " +
  "feast feel field fight find fire fish flag flower fly food fool foot forest forget forgive " +
  "fox free friend frog fruit funny game garden ghost gift girl give glass go god gold good " +
  "grass great green grief ground grow guard gun hair hand happy hard hat hate head heal heart " +
  "heaven heavy hell help hero hide hill history hold hole holiday home honest honor horse " +
  "hospital hot hotel hour house hunger hunt hunter hurt husband ice idea ill island jail " +
  "jewel join journey joy judge jump jungle justice keep key kill kind king kiss kitchen knife " +
  "know lady lake land language laugh law leader learn leave leg letter liar lie life light " +
  "lion listen little live lonely long lose love luck machine magic maid man map market marry " +
  "master meat medicine meet memory merchant message metal middle milk mind mirror money " +
  "monkey monster moon mother mountain mouse murder music mystery name nation nature neighbor " +
  "night noise north nurse ocean old open orange painter palace paper parent park party past " +
  "peace pen people pig pirate plane planet play poem poet poison police poor power pray " +
  "priest prince princess prison prize promise queen quiet rabbit race rain read red rich ride " +
  "right river road robot rock roof room rope run sad sail sailor salt sand save school " +
  "science sea season secret see sell send servant shadow sheep ship shoe shop shore short " +
  "sick silver sing sister sky sleep small smile snake snow soldier son song soul south space " +
  "speak spring spy star station steal stone storm story strange stranger street strong " +
  "student summer sun swim sword table tail talk teacher tear thief think thunder ticket tiger " +
  "time tired today tomb tower town toy train travel treasure tree trip trouble true truth " +
  "uncle valley village voice voyage wait walk wall want war warm warrior watch water wave " +
  "weak weather wedding west whale wheel white wild wind window wine winter wise witch wolf " +
  "woman wonder wood work world write wrong year yellow young youth"
).split(" ");
