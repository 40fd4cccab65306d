import HID

/// Hands out contact identifiers that no two sources share, so that the
/// fingers of two touch screens and a mouse never meet under one number in
/// an application. The server makes one and gives it to every source.
public final class ContactIdentifiers {
    private var next: UInt32 = 1

    public init() {}

    /// A fresh identifier; 0 is never used.
    func make() -> UInt32 {
        let identifier = next
        next = next == UInt32.max ? 1 : next + 1
        return identifier
    }
}

/// What a device holds at one moment, read back from it after the kernel
/// dropped events (`SYN_DROPPED`): `EVIOCGMTSLOTS`, `EVIOCGABS` and
/// `EVIOCGKEY`.
public struct EvdevDeviceState: Equatable, Sendable {
    /// One slot's values, device units.
    public struct Slot: Equatable, Sendable {
        public var trackingID: Int32
        public var x: Int32
        public var y: Int32
        public var touchMajor: Int32?
        public var pressure: Int32?

        public init(trackingID: Int32, x: Int32, y: Int32, touchMajor: Int32? = nil, pressure: Int32? = nil) {
            self.trackingID = trackingID
            self.x = x
            self.y = y
            self.touchMajor = touchMajor
            self.pressure = pressure
        }
    }

    public var currentSlot: Int32
    public var slots: [Slot]
    /// Keys and buttons down.
    public var keysDown: Set<UInt16>
    /// `ABS_X` and `ABS_Y`, for single-touch screens and absolute pointers.
    public var absoluteX: Int32?
    public var absoluteY: Int32?

    public init(currentSlot: Int32 = 0, slots: [Slot] = [], keysDown: Set<UInt16> = [], absoluteX: Int32? = nil, absoluteY: Int32? = nil) {
        self.currentSlot = currentSlot
        self.slots = slots
        self.keysDown = keysDown
        self.absoluteX = absoluteX
        self.absoluteY = absoluteY
    }
}

/// Turns a device's `input_event` records into HID events: the heart of
/// every evdev source (device node, file, FIFO, evemu recording).
///
/// Touch screens speak multi-touch protocol type B: `ABS_MT_SLOT` picks a
/// slot, `ABS_MT_TRACKING_ID` ≥ 0 starts a contact in it and −1 ends it, and
/// only changed values are sent, so the translator keeps every slot's state.
/// `SYN_REPORT` closes a scan, which becomes one ``DigitizerFrame`` listing
/// every contact: began, moved, ended, or stationary when it did not change.
/// A single-touch screen (`BTN_TOUCH` with `ABS_X`/`ABS_Y`) is one contact.
/// A mouse is one `.indirectPointer` contact while its primary button is
/// down, at a pointer that relative motion moves and the screen's edges
/// stop. Keys become button events with USB HID usages (``LinuxKeyUsages``)
/// and the modifier keys held.
///
/// After `SYN_DROPPED` the records up to the next `SYN_REPORT` are dropped
/// and the state is read again from the device (``readDeviceState``). A
/// stream (a file, a FIFO) cannot be asked: its contacts are cancelled,
/// since whether they lifted cannot be known, and a slot whose contact was
/// cancelled is ignored until a new contact starts in it.
///
/// Bad input never stops the translator: a slot past the device's slots,
/// unknown codes, timestamps that go back, are reported in ``diagnostics``
/// and skipped, and the records after them are read as usual.
public struct EvdevTranslator {
    /// The most slots a device may have; a device claiming more is held to this.
    public static let maximumSlotCount = 64
    /// Slots assumed for a stream that does not describe its device; more
    /// are added as the stream names them, up to ``maximumSlotCount``.
    static let unknownDeviceSlotCount = 10
    /// Screen points a mouse moves per count of relative motion: the
    /// kernel's counts are the mouse's own resolution (often 400–1600 per
    /// inch); one point per count is what an unaccelerated desktop pointer does.
    public static let pointsPerMouseCount = 1.0
    /// The force of a contact at full pressure: an iPhone's
    /// `maximumPossibleForce` (480 ⁄ 72, where 1.0 is an average touch).
    public static let maximumForce: Float = 480.0 / 72.0

    public let device: InputDeviceDescription
    public let screen: Screen
    /// Reads the device's state after a `SYN_DROPPED`; nil for a stream.
    public var readDeviceState: (() -> EvdevDeviceState?)?

    /// Problems found since the last ``takeDiagnostics()``.
    public var diagnostics: [String] { problems.messages }
    private var problems: DiagnosticLimiter

    private let identifiers: ContactIdentifiers
    private var slots: [Slot]
    private var currentSlot: Int = 0
    private var slotLimit: Int
    /// Set by a slot number out of range: the slot's events are skipped.
    private var currentSlotIsValid = true

    private var pointerX: Double
    private var pointerY: Double
    private var pointerMoved = false
    private var pointerContact: Tracked?
    private var pointerEnded: [Ended] = []
    private var singleTouchContact: Tracked?
    private var singleTouchEnded: [Ended] = []
    /// Whether the stream has spoken multi-touch: then `BTN_TOUCH` and
    /// `ABS_X`/`ABS_Y` are its single-touch emulation and not a contact of their own.
    private var sawMultiTouch: Bool

    private var keysDown: Set<UInt16> = []
    private var keysReleasedByDrop: Set<UInt16> = []
    private var modifierFlags: UInt32 = 0
    /// The key state as of the last reported scan: a scan that is dropped
    /// (by SYN_DROPPED or the end of input) is rolled back to it, since
    /// none of its key changes reached an application.
    private var reportedKeysDown: Set<UInt16> = []
    private var reportedModifierFlags: UInt32 = 0
    private var pendingButtons: [ButtonEvent] = []

    private var isDropping = false
    private var lastTime = -Double.infinity
    private var recordsInScan = 0
    private var recordCount = 0

    /// A contact the translator follows, in screen points.
    private struct Tracked {
        var identifier: UInt32
        var kind: DigitizerContact.Kind
        var change: Change = .began
    }

    private enum Change { case none, began, moved }

    /// A contact that ended (or was cancelled) in the scan being read.
    private struct Ended {
        var contact: DigitizerContact
        var beganInThisScan: Bool
    }

    private struct Slot {
        var trackingID: Int32 = -1
        var x = 0.0
        var y = 0.0
        var majorRadius: Float?
        var force: Float = 0
        var kind: DigitizerContact.Kind = .finger
        var contact: Tracked?
        var ended: [Ended] = []
        /// Its contact was cancelled after a drop; values are kept but no
        /// contact is reported until a new one starts here.
        var isUnknown = false
    }

    public init(device: InputDeviceDescription, screen: Screen, identifiers: ContactIdentifiers = ContactIdentifiers()) {
        self.device = device
        self.screen = screen
        self.identifiers = identifiers
        problems = DiagnosticLimiter(prefix: "\(device.name): ")
        if device.isKnown {
            if let range = device.absoluteAxes[LinuxInput.ABS_MT_SLOT] {
                slotLimit = Int(min(max(Int64(range.maximum) + 1, 1), Int64(Self.maximumSlotCount)))
            } else {
                slotLimit = 1
            }
            slots = Array(repeating: Slot(), count: slotLimit)
        } else {
            slotLimit = Self.maximumSlotCount
            slots = Array(repeating: Slot(), count: Self.unknownDeviceSlotCount)
        }
        sawMultiTouch = device.hasMultiTouch
        pointerX = screen.width / 2
        pointerY = screen.height / 2
        if let range = device.absoluteAxes[LinuxInput.ABS_MT_SLOT], Int64(range.maximum) + 1 > Int64(Self.maximumSlotCount) {
            report("slots", "\(device.name) claims \(Int64(range.maximum) + 1) slots; only the first \(Self.maximumSlotCount) are read")
        }
    }

    /// The problems found since the last call, oldest first.
    public mutating func takeDiagnostics() -> [String] {
        problems.take()
    }

    /// Reads one record; appends the HID events it completes to `events`.
    public mutating func translate(_ record: LinuxInputEvent, into events: inout [HIDEvent]) {
        recordCount += 1
        let time = checkedTime(of: record)
        if isDropping {
            if record.type == LinuxInput.EV_SYN && record.code == LinuxInput.SYN_REPORT {
                isDropping = false
                synchronizeAfterDrop(at: time, into: &events)
            }
            return
        }
        recordsInScan += 1
        switch record.type {
        case LinuxInput.EV_SYN: synchronization(record, at: time, into: &events)
        case LinuxInput.EV_ABS: absolute(record)
        case LinuxInput.EV_REL: relative(record)
        case LinuxInput.EV_KEY: key(record, at: time)
        case LinuxInput.EV_MSC, LinuxInput.EV_SW, LinuxInput.EV_LED, LinuxInput.EV_SND, LinuxInput.EV_REP,
            LinuxInput.EV_FF, LinuxInput.EV_PWR, LinuxInput.EV_FF_STATUS:
            break  // Known kinds of record that carry nothing an application sees.
        default:
            report("unknown type", "record \(recordCount): unknown event type \(record.type) (code \(record.code)); ignored")
        }
    }

    /// Reads records in order; returns the HID events they complete.
    public mutating func translate(_ records: [LinuxInputEvent]) -> [HIDEvent] {
        var events: [HIDEvent] = []
        for record in records { translate(record, into: &events) }
        return events
    }

    /// The input ended (a file read to its end, a device gone): a scan left
    /// open is dropped, contacts still down are cancelled and keys still
    /// down come up, so that no application keeps a finger that will never lift.
    public mutating func finish(at time: Double? = nil, into events: inout [HIDEvent]) {
        let time = time.map { max($0, lastTime) } ?? (lastTime.isFinite ? lastTime : 0)
        if recordsInScan > 0 {
            report("unfinished scan", "the input ended inside a scan: its last \(recordsInScan) records, with no SYN_REPORT after them, were dropped")
        }
        discardScan()
        let hadContacts = slots.contains { $0.contact != nil } || pointerContact != nil || singleTouchContact != nil
        if hadContacts || !keysDown.isEmpty {
            report("ended while down", "the input ended with contacts or keys down: the contacts are cancelled and the keys come up")
        }
        cancelEverything(at: time, into: &events)
        problems.summarize(endedBy: nil)
    }

    // MARK: - Records

    private mutating func synchronization(_ record: LinuxInputEvent, at time: Double, into events: inout [HIDEvent]) {
        switch record.code {
        case LinuxInput.SYN_REPORT:
            recordsInScan = 0
            endScan(at: time, into: &events)
        case LinuxInput.SYN_DROPPED:
            report("dropped", "record \(recordCount): the kernel dropped events (SYN_DROPPED); skipping to the next SYN_REPORT and re-reading the device's state")
            isDropping = true
            recordsInScan = 0
            discardScan()
        case LinuxInput.SYN_MT_REPORT:
            report("protocol A", "record \(recordCount): SYN_MT_REPORT is multi-touch protocol A, which is not read; only type B (slots) is")
        case LinuxInput.SYN_CONFIG:
            break
        default:
            report("unknown EV_SYN code", "record \(recordCount): unknown EV_SYN code \(record.code); ignored")
        }
    }

    private mutating func absolute(_ record: LinuxInputEvent) {
        let code = record.code
        let value = record.value
        switch code {
        case LinuxInput.ABS_MT_SLOT:
            sawMultiTouch = true
            selectSlot(value)
        case LinuxInput.ABS_MT_TRACKING_ID:
            sawMultiTouch = true
            guard let index = writableSlot() else { return }
            track(value, inSlot: index)
        case LinuxInput.ABS_MT_POSITION_X, LinuxInput.ABS_MT_POSITION_Y:
            sawMultiTouch = true
            guard let index = writableSlot() else { return }
            let isX = code == LinuxInput.ABS_MT_POSITION_X
            let position = scaled(value, axis: code, extent: isX ? screen.width : screen.height)
            let old = isX ? slots[index].x : slots[index].y
            guard old != position else { return }
            if isX { slots[index].x = position } else { slots[index].y = position }
            markMoved(slot: index)
        case LinuxInput.ABS_MT_TOUCH_MAJOR:
            guard let index = writableSlot() else { return }
            let radius = Float(majorRadius(ofDiameter: value))
            if slots[index].majorRadius != radius {
                slots[index].majorRadius = radius
                markMoved(slot: index)
            }
        case LinuxInput.ABS_MT_PRESSURE:
            guard let index = writableSlot() else { return }
            let force = self.force(ofPressure: value, axis: code)
            if slots[index].force != force {
                slots[index].force = force
                markMoved(slot: index)
            }
        case LinuxInput.ABS_MT_TOOL_TYPE:
            guard let index = writableSlot() else { return }
            slots[index].kind = value == LinuxInput.MT_TOOL_PEN ? .stylus : .finger
        case LinuxInput.ABS_X, LinuxInput.ABS_Y:
            let isX = code == LinuxInput.ABS_X
            let position = scaled(value, axis: code, extent: isX ? screen.width : screen.height)
            if isX { movePointer(toX: position, y: pointerY) } else { movePointer(toX: pointerX, y: position) }
        case _ where code > LinuxInput.ABS_MAX:
            report("unknown absolute axis", "record \(recordCount): unknown absolute axis \(code); ignored")
        default:
            break  // Axes an application does not see: orientation, distance, tool width, tilt, …
        }
    }

    private mutating func relative(_ record: LinuxInputEvent) {
        switch record.code {
        case LinuxInput.REL_X:
            movePointer(toX: pointerX + Double(record.value) * Self.pointsPerMouseCount, y: pointerY)
        case LinuxInput.REL_Y:
            movePointer(toX: pointerX, y: pointerY + Double(record.value) * Self.pointsPerMouseCount)
        case _ where record.code > LinuxInput.REL_MAX:
            report("unknown relative axis", "record \(recordCount): unknown relative axis \(record.code); ignored")
        default:
            break  // Wheels and dials: scrolling by wheel is not an event UIKit apps receive on iOS.
        }
    }

    private mutating func key(_ record: LinuxInputEvent, at time: Double) {
        let code = record.code
        guard (0...2).contains(record.value) else {
            report("key value", "record \(recordCount): key \(code) has value \(record.value), not 0 (up), 1 (down) or 2 (repeat); ignored")
            return
        }
        guard record.value != 2 else { return }  // Auto-repeat: a HID keyboard reports a held key once.
        let isDown = record.value == 1
        switch code {
        case LinuxInput.BTN_LEFT:
            pointerButton(isDown: isDown)
        case LinuxInput.BTN_TOUCH:
            singleTouch(isDown: isDown)
        case LinuxInput.BTN_RIGHT, LinuxInput.BTN_MIDDLE, LinuxInput.BTN_STYLUS, LinuxInput.BTN_TOOL_PEN...0x14f:
            break  // Secondary buttons and tool announcements: no touch of their own.
        default:
            guard let usage = LinuxKeyUsages.usage(forKey: code) else {
                if code > LinuxInput.KEY_MAX {
                    report("unknown key", "record \(recordCount): unknown key code \(code); ignored")
                } else {
                    report("unknown key", "record \(recordCount): key code \(code) has no USB HID usage; ignored")
                }
                return
            }
            if isDown {
                guard !keysDown.contains(code) else {
                    report("key twice", "record \(recordCount): key \(code) went down while down; ignored")
                    return
                }
                keysDown.insert(code)
                keysReleasedByDrop.remove(code)
                if code == LinuxKeyUsages.capsLockKey { modifierFlags ^= LinuxKeyUsages.alphaShiftFlag }
            } else {
                guard keysDown.contains(code) else {
                    if keysReleasedByDrop.remove(code) == nil {
                        report("key up", "record \(recordCount): key \(code) came up without going down; ignored")
                    }
                    return
                }
                keysDown.remove(code)
            }
            updateModifierFlags()
            var flags = modifierFlags
            if LinuxKeyUsages.keypadKeys.contains(code) { flags |= LinuxKeyUsages.numericPadFlag }
            pendingButtons.append(ButtonEvent(timestamp: time, usagePage: usage.page, usage: usage.usage, isDown: isDown, modifierFlags: flags))
        }
    }

    // MARK: - Slots

    private mutating func selectSlot(_ value: Int32) {
        guard value >= 0, Int(value) < slotLimit else {
            currentSlotIsValid = false
            report("slot out of range", "record \(recordCount): slot \(value) is outside the device's \(slotLimit) slots; its events are ignored until the next ABS_MT_SLOT")
            return
        }
        currentSlot = Int(value)
        currentSlotIsValid = true
        if currentSlot >= slots.count {
            slots.append(contentsOf: repeatElement(Slot(), count: currentSlot + 1 - slots.count))
        }
    }

    private func writableSlot() -> Int? {
        currentSlotIsValid && currentSlot < slots.count ? currentSlot : nil
    }

    private mutating func track(_ trackingID: Int32, inSlot index: Int) {
        let old = slots[index].trackingID
        slots[index].trackingID = trackingID
        if trackingID < 0 {
            slots[index].isUnknown = false
            endContact(inSlot: index, phase: .ended)
            return
        }
        if slots[index].contact != nil {
            guard old != trackingID else { return }
            // A new contact replaced the old one within one scan: the old one lifted.
            endContact(inSlot: index, phase: .ended)
        }
        slots[index].isUnknown = false
        slots[index].contact = Tracked(identifier: identifiers.make(), kind: slots[index].kind)
    }

    private mutating func endContact(inSlot index: Int, phase: DigitizerContact.Phase) {
        guard let contact = slots[index].contact else { return }
        let slot = slots[index]
        slots[index].ended.append(Ended(
            contact: digitizerContact(slot, identifier: contact.identifier, phase: phase),
            beganInThisScan: contact.change == .began
        ))
        slots[index].contact = nil
    }

    private mutating func markMoved(slot index: Int) {
        if slots[index].contact?.change == Change.none { slots[index].contact?.change = .moved }
    }

    // MARK: - Pointer and single touch

    private mutating func movePointer(toX x: Double, y: Double) {
        let clampedX = min(max(x, 0), screen.width)
        let clampedY = min(max(y, 0), screen.height)
        guard clampedX != pointerX || clampedY != pointerY else { return }
        pointerX = clampedX
        pointerY = clampedY
        if pointerContact?.change == Change.none { pointerContact?.change = .moved }
        if singleTouchContact?.change == Change.none { singleTouchContact?.change = .moved }
    }

    private mutating func pointerButton(isDown: Bool) {
        if isDown {
            guard pointerContact == nil else { return }
            pointerContact = Tracked(identifier: identifiers.make(), kind: .indirectPointer)
        } else if let contact = pointerContact {
            pointerEnded.append(Ended(contact: pointerDigitizerContact(contact, phase: .ended), beganInThisScan: contact.change == .began))
            pointerContact = nil
        }
    }

    private mutating func singleTouch(isDown: Bool) {
        // On a multi-touch screen BTN_TOUCH only says whether any slot is in use.
        guard !sawMultiTouch else { return }
        if isDown {
            guard singleTouchContact == nil else { return }
            singleTouchContact = Tracked(identifier: identifiers.make(), kind: .finger)
        } else if let contact = singleTouchContact {
            singleTouchEnded.append(Ended(contact: pointerDigitizerContact(contact, phase: .ended), beganInThisScan: contact.change == .began))
            singleTouchContact = nil
        }
    }

    // MARK: - Scans

    /// Emits the scan's button events, then its digitizer frame if any
    /// contact changed.
    private mutating func endScan(at time: Double, into events: inout [HIDEvent]) {
        for button in pendingButtons { events.append(.button(button)) }
        pendingButtons.removeAll(keepingCapacity: true)
        reportedKeysDown = keysDown
        reportedModifierFlags = modifierFlags

        var contacts: [DigitizerContact] = []
        var endedLater: [DigitizerContact] = []
        var changed = false
        func add(_ ended: [Ended]) {
            for item in ended {
                changed = true
                if item.beganInThisScan {
                    // Began and lifted within one scan: report the touch
                    // down in this frame and up in the next, so a tap shorter
                    // than a scan still reaches the application.
                    var began = item.contact
                    began.phase = .began
                    contacts.append(began)
                    endedLater.append(item.contact)
                } else {
                    contacts.append(item.contact)
                }
            }
        }
        for index in slots.indices {
            add(slots[index].ended)
            slots[index].ended.removeAll()
            guard let contact = slots[index].contact else { continue }
            let phase = Self.phase(of: contact.change)
            if phase != .stationary { changed = true }
            contacts.append(digitizerContact(slots[index], identifier: contact.identifier, phase: phase))
            slots[index].contact?.change = Change.none
        }
        add(singleTouchEnded)
        singleTouchEnded.removeAll()
        if let contact = singleTouchContact {
            let phase = Self.phase(of: contact.change)
            if phase != .stationary { changed = true }
            contacts.append(pointerDigitizerContact(contact, phase: phase))
            singleTouchContact?.change = Change.none
        }
        add(pointerEnded)
        pointerEnded.removeAll()
        if let contact = pointerContact {
            let phase = Self.phase(of: contact.change)
            if phase != .stationary { changed = true }
            contacts.append(pointerDigitizerContact(contact, phase: phase))
            pointerContact?.change = Change.none
        }
        guard changed else { return }
        events.append(.digitizer(DigitizerFrame(timestamp: time, contacts: contacts)))
        if !endedLater.isEmpty {
            let stillDown = contacts.filter { $0.phase != .ended && $0.phase != .cancelled && !endedLater.map(\.identifier).contains($0.identifier) }
                .map { contact -> DigitizerContact in
                    var stationary = contact
                    stationary.phase = .stationary
                    return stationary
                }
            events.append(.digitizer(DigitizerFrame(timestamp: time, contacts: endedLater + stillDown)))
        }
    }

    /// Forgets what the scan being read changed (its records were dropped):
    /// its key changes are undone; slot values it wrote stay, which a
    /// resynchronisation then corrects.
    private mutating func discardScan() {
        pendingButtons.removeAll()
        keysDown = reportedKeysDown
        modifierFlags = reportedModifierFlags
        recordsInScan = 0
    }

    private mutating func synchronizeAfterDrop(at time: Double, into events: inout [HIDEvent]) {
        if let state = readDeviceState?() {
            apply(state, at: time, into: &events)
        } else {
            report("cancelled by drop", "events were lost and the stream cannot be asked what is down: its contacts are cancelled and its keys come up")
            cancelEverything(at: time, into: &events)
        }
    }

    /// Brings every slot, the pointer and the keys to what the device says
    /// now, and emits what changed.
    private mutating func apply(_ state: EvdevDeviceState, at time: Double, into events: inout [HIDEvent]) {
        for (index, reported) in state.slots.prefix(slots.count).enumerated() {
            let x = scaled(reported.x, axis: LinuxInput.ABS_MT_POSITION_X, extent: screen.width)
            let y = scaled(reported.y, axis: LinuxInput.ABS_MT_POSITION_Y, extent: screen.height)
            if reported.trackingID < 0 || reported.trackingID != slots[index].trackingID {
                endContact(inSlot: index, phase: .ended)
            }
            slots[index].x = x
            slots[index].y = y
            if let major = reported.touchMajor { slots[index].majorRadius = Float(majorRadius(ofDiameter: major)) }
            if let pressure = reported.pressure { slots[index].force = force(ofPressure: pressure, axis: LinuxInput.ABS_MT_PRESSURE) }
            slots[index].isUnknown = false
            if reported.trackingID >= 0 {
                if slots[index].contact == nil {
                    slots[index].contact = Tracked(identifier: identifiers.make(), kind: slots[index].kind)
                } else if slots[index].contact?.change == Change.none {
                    slots[index].contact?.change = .moved
                }
            }
            slots[index].trackingID = reported.trackingID
        }
        selectSlot(state.currentSlot)
        if let x = state.absoluteX, let y = state.absoluteY {
            movePointer(
                toX: scaled(x, axis: LinuxInput.ABS_X, extent: screen.width),
                y: scaled(y, axis: LinuxInput.ABS_Y, extent: screen.height)
            )
        }
        pointerButton(isDown: state.keysDown.contains(LinuxInput.BTN_LEFT))
        singleTouch(isDown: state.keysDown.contains(LinuxInput.BTN_TOUCH))
        for code in keysDown.subtracting(state.keysDown).sorted() {
            key(LinuxInputEvent(time: time, type: LinuxInput.EV_KEY, code: code, value: 0), at: time)
        }
        for code in state.keysDown.subtracting(keysDown).sorted() where LinuxKeyUsages.usage(forKey: code) != nil {
            key(LinuxInputEvent(time: time, type: LinuxInput.EV_KEY, code: code, value: 1), at: time)
        }
        endScan(at: time, into: &events)
    }

    /// Cancels every contact and lets every key up, then emits that.
    private mutating func cancelEverything(at time: Double, into events: inout [HIDEvent]) {
        for index in slots.indices where slots[index].contact != nil {
            endContact(inSlot: index, phase: .cancelled)
            slots[index].isUnknown = true
        }
        if let contact = pointerContact {
            pointerEnded.append(Ended(contact: pointerDigitizerContact(contact, phase: .cancelled), beganInThisScan: contact.change == .began))
            pointerContact = nil
        }
        if let contact = singleTouchContact {
            singleTouchEnded.append(Ended(contact: pointerDigitizerContact(contact, phase: .cancelled), beganInThisScan: contact.change == .began))
            singleTouchContact = nil
        }
        for code in keysDown.sorted() {
            key(LinuxInputEvent(time: time, type: LinuxInput.EV_KEY, code: code, value: 0), at: time)
            keysReleasedByDrop.insert(code)
        }
        endScan(at: time, into: &events)
    }

    // MARK: - Values

    private func digitizerContact(_ slot: Slot, identifier: UInt32, phase: DigitizerContact.Phase) -> DigitizerContact {
        var contact = DigitizerContact(identifier: identifier, phase: phase, x: slot.x, y: slot.y, kind: slot.kind)
        if let radius = slot.majorRadius { contact.majorRadius = radius }
        if device.absoluteAxes[LinuxInput.ABS_MT_PRESSURE] != nil {
            contact.force = slot.force
            contact.maximumPossibleForce = Self.maximumForce
        }
        return contact
    }

    private func pointerDigitizerContact(_ tracked: Tracked, phase: DigitizerContact.Phase) -> DigitizerContact {
        DigitizerContact(identifier: tracked.identifier, phase: phase, x: pointerX, y: pointerY, kind: tracked.kind)
    }

    private static func phase(of change: Change) -> DigitizerContact.Phase {
        switch change {
        case .none: .stationary
        case .began: .began
        case .moved: .moved
        }
    }

    /// A device value in screen points: scaled by the axis's range, or
    /// taken as points when the device gave no range.
    private mutating func scaled(_ value: Int32, axis: UInt16, extent: Double) -> Double {
        if let range = device.absoluteAxes[axis] {
            if let points = range.scale(value, to: extent) { return points }
            report("empty range", "axis \(axis) has an empty range \(range.minimum)…\(range.maximum); its values are taken as points")
        }
        return min(max(Double(value), 0), extent)
    }

    /// Half a contact's major axis, in points.
    private func majorRadius(ofDiameter value: Int32) -> Double {
        let perUnit = device.absoluteAxes[LinuxInput.ABS_MT_POSITION_X]?.pointsPerUnit(over: screen.width) ?? 1
        return max(Double(value), 0) * perUnit / 2
    }

    private func force(ofPressure value: Int32, axis: UInt16) -> Float {
        guard let range = device.absoluteAxes[axis], let fraction = range.scale(value, to: 1) else { return 0 }
        return Float(fraction) * Self.maximumForce
    }

    private mutating func updateModifierFlags() {
        var flags = modifierFlags & LinuxKeyUsages.alphaShiftFlag
        for code in keysDown { flags |= LinuxKeyUsages.modifierFlags[code] ?? 0 }
        modifierFlags = flags
    }

    /// The record's time in seconds, never earlier than the one before.
    private mutating func checkedTime(of record: LinuxInputEvent) -> Double {
        if !(0..<1_000_000).contains(record.microseconds) {
            report("tv_usec", "record \(recordCount): tv_usec \(record.microseconds) is outside 0…999999")
        }
        let time = record.time
        if time < lastTime {
            report("time going back", "record \(recordCount): time goes back from \(lastTime) to \(time) s; held at \(lastTime) s")
            return lastTime
        }
        lastTime = time
        return time
    }

    private mutating func report(_ problem: String, _ message: String) {
        problems.report(problem, message)
    }
}
