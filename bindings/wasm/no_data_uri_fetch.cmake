# Post-link fix of Emscripten 3.1.6's loader for SINGLE_FILE builds.
#
# With the wasm embedded as a data: URI, the 3.1.6 loader still first tries fetch(dataURI) and
# only on failure decodes the base64 itself. Under a Content-Security-Policy without data: in
# connect-src (this reader's, and many course sites') that fetch is refused and logged as a
# console error before the fallback succeeds. Later Emscripten releases skip the fetch for data
# URIs; this applies the same one-condition change. The build fails if the pattern is not
# found exactly once, so an Emscripten upgrade cannot silently skip it.
#
# Usage: cmake -DFILE=<llmmath.js> -P no_data_uri_fetch.cmake
file(READ "${FILE}" js)
set(old [=[function getBinaryPromise(){if(!wasmBinary&&(ENVIRONMENT_IS_WEB||ENVIRONMENT_IS_WORKER)){if(typeof fetch=="function"){]=])
set(new [=[function getBinaryPromise(){if(!wasmBinary&&(ENVIRONMENT_IS_WEB||ENVIRONMENT_IS_WORKER)){if(typeof fetch=="function"&&!isDataURI(wasmBinaryFile)){]=])
string(FIND "${js}" "${new}" already)
if(NOT already EQUAL -1)
  return()
endif()
string(FIND "${js}" "${old}" first)
string(FIND "${js}" "${old}" last REVERSE)
if(first EQUAL -1 OR NOT first EQUAL last)
  message(FATAL_ERROR "no_data_uri_fetch: expected exactly one getBinaryPromise fetch in ${FILE}; "
                      "check the Emscripten version's loader and update this patch")
endif()
string(REPLACE "${old}" "${new}" js "${js}")
file(WRITE "${FILE}" "${js}")
