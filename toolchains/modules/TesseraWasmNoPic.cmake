# Per-language settings for clang targeting wasm32 (WASI, Emscripten), loaded
# from Platform/<System>-Clang-<LANG>.cmake, i.e. after CMake's
# Compiler/Clang-<LANG>.cmake set its -fPIC/-fPIE options.
include_guard(GLOBAL)

macro(tessera_wasm_no_pic lang)
  # Everything links statically into one module (no MAIN_MODULE/SIDE_MODULE,
  # no dynamic linking in WASI preview1), so position-independent code would
  # only add GOT indirections to every global access. The targets that ask
  # for POSITION_INDEPENDENT_CODE (for native shared builds) get none here.
  set(CMAKE_${lang}_COMPILE_OPTIONS_PIC "")
  set(CMAKE_${lang}_COMPILE_OPTIONS_PIE "")
  set(CMAKE_${lang}_LINK_OPTIONS_PIE "")
  set(CMAKE_${lang}_LINK_OPTIONS_NO_PIE "")
endmacro()
