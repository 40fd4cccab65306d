// Fuzz target: input_event records through the evdev translator, as a
// device node, file or FIFO delivers them.
//
// The first byte picks the device (a described touch screen, a stream
// that describes nothing, a mouse) and how the records are cut. Checked
// beyond not crashing: every contact is on the screen and finite, every
// contact begins before it moves or ends and nothing follows its end,
// timestamps never go back, and at the end of input nothing is left down.
import EventServer
import HID


private func device(_ choice: UInt8) -> InputDeviceDescription {
    switch choice % 3 {
    case 0:
        return InputDeviceDescription(
            name: "fuzz touch screen", keys: [LinuxInput.BTN_TOUCH],
            absoluteAxes: [
                LinuxInput.ABS_MT_SLOT: InputAxisRange(minimum: 0, maximum: 4),
                LinuxInput.ABS_MT_POSITION_X: InputAxisRange(minimum: -100, maximum: 4000),
                LinuxInput.ABS_MT_POSITION_Y: InputAxisRange(minimum: 0, maximum: 8000),
                LinuxInput.ABS_MT_TRACKING_ID: InputAxisRange(minimum: 0, maximum: 65535),
                LinuxInput.ABS_MT_PRESSURE: InputAxisRange(minimum: 0, maximum: 255),
                LinuxInput.ABS_MT_TOUCH_MAJOR: InputAxisRange(minimum: 0, maximum: 255),
                LinuxInput.ABS_X: InputAxisRange(minimum: 5, maximum: 5),
            ],
            properties: [LinuxInput.INPUT_PROP_DIRECT]
        )
    case 1:
        return .unknown(name: "fuzz stream")
    default:
        return InputDeviceDescription(
            name: "fuzz mouse", keys: [LinuxInput.BTN_LEFT, LinuxInput.BTN_RIGHT], relativeAxes: [LinuxInput.REL_X, LinuxInput.REL_Y]
        )
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard bytes.count >= 2 else { return 0 }
    var translator = EvdevTranslator(device: device(bytes[0]), screen: .standard)
    if bytes[0] & 0x40 != 0 {
        // A device that answers after SYN_DROPPED, with state made from the input.
        let seed = bytes[1]
        translator.readDeviceState = {
            EvdevDeviceState(
                currentSlot: Int32(seed % 7) - 1,
                slots: (0..<Int(seed % 6)).map { EvdevDeviceState.Slot(trackingID: Int32($0) - Int32(seed % 3), x: Int32(seed) * 13, y: -Int32($0)) },
                keysDown: seed & 1 == 0 ? [30, LinuxInput.BTN_LEFT] : [LinuxInput.BTN_TOUCH],
                absoluteX: Int32(seed), absoluteY: -5
            )
        }
    }
    var parser = LinuxInputEventParser()
    var checker = ContactChecker()
    let sliceSize = Int(bytes[1] % 40) + 1
    var offset = 2
    while offset < bytes.count {
        let end = min(offset + sliceSize, bytes.count)
        var events: [HIDEvent] = []
        for record in parser.parse(bytes[offset..<end]) { translator.translate(record, into: &events) }
        checker.check(events)
        offset = end
    }
    var events: [HIDEvent] = []
    translator.finish(into: &events)
    checker.check(events)
    checker.checkNothingIsDown()
    _ = translator.takeDiagnostics()
    return 0
}
