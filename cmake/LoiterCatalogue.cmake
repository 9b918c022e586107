# The scenario catalogue as CMake sees it: "id:family" for each scenario, in catalogue
# order. ctest needs the ids at configure time to give each scenario its own test and
# labels; the unit test Catalogue.CMakeListMatchesTheCatalogue keeps this list honest.
set(LOITER_CATALOGUE
  silent:header
)
