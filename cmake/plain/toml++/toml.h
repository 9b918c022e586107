// Put before the system headers on the include path of the plain-data layers (cmake/LoiterLayers.cmake:
// loiter_plain_data): a file there that includes toml++, directly or through a header of
// ours, fails to compile here, naming the file.
#error "a plain-data layer includes toml++: keep it in the rooms that drive connections"
