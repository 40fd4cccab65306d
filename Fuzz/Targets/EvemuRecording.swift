// Fuzz target: evemu recordings (text), through the stream decoder that
// tells them from input_event records by content and on through the
// translator, as a file or FIFO of them is read.
//
// The first byte picks how the text is cut. Checked beyond not crashing:
// the same checks on the HID events as the EvdevRecords target, and the
// parser reads the same events whatever the slices.
import EventServer
import HID

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let all = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = all.first else { return 0 }
    let bytes = Array(all.dropFirst())
    let sliceSize = Int(first % 50) + 1

    var whole = EvemuParser()
    let expected = whole.parse(bytes) + whole.finish()
    var sliced = EvemuParser()
    var records: [LinuxInputEvent] = []
    for start in stride(from: 0, to: bytes.count, by: sliceSize) {
        records += sliced.parse(bytes[start..<min(start + sliceSize, bytes.count)])
    }
    records += sliced.finish()
    precondition(records == expected, "the events depend on how the text was cut")
    precondition(sliced.device(fallbackName: "x") == whole.device(fallbackName: "x"), "the device depends on how the text was cut")

    var decoder = EvdevStreamDecoder(name: "fuzz", screen: .standard)
    var checker = ContactChecker()
    for start in stride(from: 0, to: bytes.count, by: sliceSize) {
        checker.check(decoder.decode(bytes[start..<min(start + sliceSize, bytes.count)]))
    }
    var events: [HIDEvent] = []
    decoder.finish(into: &events)
    checker.check(events)
    checker.checkNothingIsDown()
    _ = decoder.takeDiagnostics()
    return 0
}
