include("${CMAKE_CURRENT_LIST_DIR}/../TesseraWasmNoPic.cmake")
tessera_wasm_no_pic(C)
