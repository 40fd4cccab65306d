import HID

/// Turns digitizer frames into touch events: the work of the application's
/// event source (source0).
///
/// It keeps one `UITouch` per finger for the finger's whole life, and checks
/// every contact before trusting it. A contact with a non-finite position, a
/// finger that begins twice, or a finger never seen before is reported and
/// dropped; the rest of the frame goes on. A finger that the frame does not
/// mention is stationary.
@MainActor
final class HIDEventTranslator {
    private struct Finger {
        let identifier: UInt32
        let touch: UITouch
        /// The last valid position reported, in screen points.
        var location: CGPoint
    }

    /// The fingers down, in the order they landed: a handful at most, so a
    /// list searched in order beats hashing the identifier several times a frame.
    @exclusivity(unchecked) private var fingers: [Finger] = []
    /// Fingers that began at a bad point: reported once, then ignored until they lift.
    @exclusivity(unchecked) private var rejectedFingers: Set<UInt32> = []
    /// How many fingers have landed since launch: each touch's trace number.
    private var landedCount = 0

    /// The fingers down, with where each last was.
    var fingersDown: [(identifier: UInt32, location: CGPoint)] {
        var down: [(identifier: UInt32, location: CGPoint)] = []
        for finger in fingers { down.append((finger.identifier, finger.location)) }
        return down
    }

    /// Back to the state of a new translator: no fingers down.
    func reset() {
        fingers = []
        rejectedFingers = []
        landedCount = 0
    }

    /// Appends the frame's touch samples to `samples` (the application's
    /// queue of them); returns false, appending nothing, if the frame has
    /// nothing to deliver.
    func translate(_ frame: DigitizerFrame, into samples: inout [TouchSample], diagnostics: DiagnosticLog) -> Bool {
        guard frame.timestamp.isFinite else {
            diagnostics.report(Diagnostic(.invalidTouch, "digitizer frame with a non-finite timestamp was dropped"))
            return false
        }
        let start = samples.count
        for contact in frame.contacts {
            let id = contact.identifier
            let reported = CGPoint(x: contact.x, y: contact.y)
            let index = fingerIndex(of: id)
            if contact.phase == .began {
                guard index == nil else {
                    diagnostics.report(Diagnostic(.invalidTouch, "finger \(id) began again while down; contact dropped"))
                    continue
                }
                guard reported.isFinite else {
                    rejectedFingers.insert(id)
                    diagnostics.report(Diagnostic(.invalidTouch, "finger \(id) began at a non-finite point (\(contact.x), \(contact.y)); it is ignored until it lifts"))
                    continue
                }
                let touch = UITouch(fingerIdentifier: id)
                landedCount += 1
                touch.traceIdentifier = landedCount
                touch.type = Self.touchType(of: contact.kind)
                fingers.append(Finger(identifier: id, touch: touch, location: reported))
                samples.append(sample(touch, .began, at: reported, contact, frame.timestamp))
                continue
            }
            guard let index else {
                if rejectedFingers.contains(id) {
                    if contact.phase == .ended || contact.phase == .cancelled { rejectedFingers.remove(id) }
                    continue
                }
                diagnostics.report(Diagnostic(.invalidTouch, "finger \(id) is not down; \(contact.phase) contact dropped"))
                continue
            }
            if reported.isFinite {
                fingers[index].location = reported
            } else {
                diagnostics.report(Diagnostic(.invalidTouch, "finger \(id) moved to a non-finite point (\(contact.x), \(contact.y)); it keeps its last position"))
            }
            let finger = fingers[index]
            let phase = Self.touchPhase(of: contact.phase, moved: reported.isFinite)
            if phase == .ended || phase == .cancelled { fingers.remove(at: index) }
            guard !finger.touch.isEndedByApplication else { continue }
            samples.append(sample(finger.touch, phase, at: finger.location, contact, frame.timestamp))
        }
        for finger in fingers where !finger.touch.isEndedByApplication {
            var reported = false
            for index in start..<samples.count where samples[index].touch === finger.touch { reported = true }
            guard !reported else { continue }
            samples.append(TouchSample(
                touch: finger.touch, phase: .stationary, location: finger.location,
                majorRadius: finger.touch.majorRadius, majorRadiusTolerance: finger.touch.majorRadiusTolerance,
                force: finger.touch.force, maximumPossibleForce: finger.touch.maximumPossibleForce, timestamp: frame.timestamp))
        }
        return samples.count > start
    }

    private func fingerIndex(of identifier: UInt32) -> Int? {
        for index in fingers.indices where fingers[index].identifier == identifier { return index }
        return nil
    }

    private func sample(
        _ touch: UITouch, _ phase: UITouch.Phase, at location: CGPoint, _ contact: DigitizerContact, _ timestamp: TimeInterval
    ) -> TouchSample {
        TouchSample(
            touch: touch, phase: phase, location: location,
            majorRadius: Self.finiteOrZero(contact.majorRadius),
            majorRadiusTolerance: Self.finiteOrZero(contact.majorRadiusTolerance),
            force: Self.finiteOrZero(contact.force),
            maximumPossibleForce: Self.finiteOrZero(contact.maximumPossibleForce),
            timestamp: timestamp)
    }

    private static func finiteOrZero(_ value: Float) -> CGFloat {
        value.isFinite ? CGFloat(value) : 0
    }

    private static func touchPhase(of phase: DigitizerContact.Phase, moved: Bool) -> UITouch.Phase {
        switch phase {
        case .began: .began
        case .moved: moved ? .moved : .stationary
        case .stationary: .stationary
        case .ended: .ended
        case .cancelled: .cancelled
        }
    }

    private static func touchType(of kind: DigitizerContact.Kind) -> UITouch.TouchType {
        switch kind {
        case .finger: .direct
        case .indirect: .indirect
        case .stylus: .pencil
        case .indirectPointer: .indirectPointer
        }
    }
}
