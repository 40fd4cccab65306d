// Fuzz target: the HID wire decoder (HIDPacketDecoder), the bytes an
// application's port reads from the event server.
//
// The first byte picks the slice size the rest is fed in, so packets are
// cut at every place. Checked beyond not crashing: every event decoded
// encodes to bytes that decode to the same bytes again, and the decoder
// never holds more than it was given.
import HID

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let sliceSize = Int(first % 64) + 1
    var decoder = HIDPacketDecoder()
    var events: [HIDEvent] = []
    var offset = 1
    while offset < bytes.count {
        let end = min(offset + sliceSize, bytes.count)
        if first & 0x80 == 0 {
            decoder.append(bytes[offset..<end])
        } else {
            var slice = Array(bytes[offset..<end])
            decoder.take(&slice)
            precondition(slice.isEmpty, "take(_:) left bytes behind")
        }
        offset = end
        while let result = decoder.next() {
            if case .success(let event) = result { events.append(event) }
        }
        precondition(decoder.bufferedByteCount <= bytes.count, "the decoder holds more than it was given")
    }
    let encoder = HIDPacketEncoder()
    for event in events {
        let encoded = encoder.encode(event)
        var again = HIDPacketDecoder()
        again.append(encoded)
        guard case .success(let decoded)? = again.next() else { preconditionFailure("an encoded event did not decode") }
        precondition(encoder.encode(decoded) == encoded, "an event changed on its way through the wire format")
    }
    return 0
}
