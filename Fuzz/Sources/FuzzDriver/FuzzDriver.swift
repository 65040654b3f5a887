// The entry of every fuzzer. SwiftPM links an executable's `main` to a function named
// `<module>_main`, which each target defines (`@_cdecl`) and which hands over to libFuzzer's
// driver with the target's test function; libFuzzer's own `main` is then never linked in.

/// libFuzzer's driver (compiler-rt's FuzzerDriver.cpp).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Runs libFuzzer with the process's arguments and `test` as the function under test.
public func runFuzzer(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32 {
  var argc = argc
  var argv = argv
  return LLVMFuzzerRunDriver(&argc, &argv, test)
}
