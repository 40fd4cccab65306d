import CX11
#if canImport(Glibc)
import Glibc
#endif

/// XInput 2.2's touch events for one window, through libXi loaded at run
/// time: machines of this kind have `libXi.so.6` but not its headers, so
/// the event server must build without it. Its types are declared in the
/// CX11 shim; the two functions used are looked up with `dlsym`.
struct XInput2Touches {
    /// The extension's major opcode: a `GenericEvent` with it in
    /// `xcookie.extension` is an XInput 2 event.
    let opcode: Int32

    private struct Library: @unchecked Sendable {
        // Function pointers from dlsym, never changed after loading.
        let queryVersion: openuikit_XIQueryVersion
        let selectEvents: openuikit_XISelectEvents
    }

    /// libXi, loaded once for the process; nil with the reason when it cannot be.
    private static let library: Result<Library, XInput2Unavailable> = {
        guard let handle = dlopen("libXi.so.6", RTLD_NOW | RTLD_LOCAL) else {
            return .failure(XInput2Unavailable(reason: "libXi.so.6 cannot be loaded (\(dlerror().map { String(cString: $0) } ?? "unknown error"))"))
        }
        guard let query = dlsym(handle, "XIQueryVersion"), let select = dlsym(handle, "XISelectEvents") else {
            return .failure(XInput2Unavailable(reason: "libXi.so.6 has no XIQueryVersion or XISelectEvents"))
        }
        return .success(Library(
            queryVersion: unsafeBitCast(query, to: openuikit_XIQueryVersion.self),
            selectEvents: unsafeBitCast(select, to: openuikit_XISelectEvents.self)
        ))
    }()

    struct XInput2Unavailable: Error {
        let reason: String
    }

    /// Asks for touch begin, update and end events on `window` from every
    /// master device; throws, saying why, when the X server or this machine
    /// cannot give them (no XInput extension, a version before 2.2, no libXi).
    static func select(display: OpaquePointer, window: Window) throws(XInput2Unavailable) -> XInput2Touches {
        let library = try library.get()
        var opcode: Int32 = 0, firstEvent: Int32 = 0, firstError: Int32 = 0
        guard XQueryExtension(display, "XInputExtension", &opcode, &firstEvent, &firstError) != 0 else {
            throw XInput2Unavailable(reason: "the X server has no XInput extension")
        }
        var major: Int32 = 2, minor: Int32 = 2
        guard library.queryVersion(display, &major, &minor) == Success, major > 2 || (major == 2 && minor >= 2) else {
            throw XInput2Unavailable(reason: "the X server's XInput is \(major).\(minor); touches need 2.2")
        }
        // XISetMask: one bit per event type. The protocol requires begin,
        // update and end to be selected together.
        var bits = [UInt8](repeating: 0, count: 4)
        for event in [XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd] {
            bits[Int(event) >> 3] |= UInt8(1 << (Int(event) & 7))
        }
        let status = bits.withUnsafeMutableBufferPointer { buffer in
            var mask = openuikit_XIEventMask(deviceid: XIAllMasterDevices, mask_len: Int32(buffer.count), mask: buffer.baseAddress)
            return library.selectEvents(display, window, &mask, 1)
        }
        guard status == Success else {
            throw XInput2Unavailable(reason: "XISelectEvents refused the touch events (status \(status))")
        }
        return XInput2Touches(opcode: opcode)
    }

    /// The touch a `GenericEvent` carries, or nil for any other event. The
    /// event's data is fetched and freed here.
    func touch(in event: inout XEvent, display: OpaquePointer) -> (event: WindowInputTranslator.Event, time: UInt32)? {
        guard event.type == GenericEvent, event.xcookie.extension == opcode else { return nil }
        guard XGetEventData(display, &event.xcookie) != 0 else { return nil }
        defer { XFreeEventData(display, &event.xcookie) }
        guard let data = event.xcookie.data else { return nil }
        let device = data.assumingMemoryBound(to: openuikit_XIDeviceEvent.self).pointee
        return Self.translate(evtype: device.evtype, detail: device.detail, x: device.event_x, y: device.event_y, time: device.time)
    }

    /// An XInput 2 device event's fields as a window input event: the part
    /// of ``touch(in:display:)`` that tests can feed.
    static func translate(evtype: Int32, detail: Int32, x: Double, y: Double, time: Time) -> (event: WindowInputTranslator.Event, time: UInt32)? {
        let phase: WindowInputTranslator.TouchPhase
        switch evtype {
        case XI_TouchBegin: phase = .begin
        case XI_TouchUpdate: phase = .update
        case XI_TouchEnd: phase = .end
        default: return nil
        }
        return (.touch(UInt32(bitPattern: detail), phase: phase, x: x, y: y), UInt32(truncatingIfNeeded: time))
    }
}
