// Fuzz target: the HID recording reader (HIDRecording.decode).
//
// Checked beyond not crashing: what it read, written again, reads back
// whole and without error; an error names a record no later than the
// number of events read and an offset inside the file.
import HID

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let (events, error) = HIDRecording.decode(bytes)
    switch error {
    case .truncated(let record, let offset, _, _)?, .badRecordLength(let record, let offset, _)?,
        .checksumMismatch(let record, let offset)?, .undecodable(let record, let offset, _)?:
        precondition(record == events.count, "the error's record number is not the count of records read")
        precondition(offset >= HIDRecording.headerSize && offset < bytes.count, "the error's offset is outside the file")
    case nil:
        break
    default:
        precondition(events.isEmpty, "events read from a file whose header is bad")
    }
    let rewritten = HIDRecording.encode(events)
    let (again, againError) = HIDRecording.decode(rewritten)
    precondition(againError == nil && again.count == events.count, "a rewritten recording did not read back")
    return 0
}
