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
        let touch: UITouch
        /// The last valid position reported, in screen points.
        var location: CGPoint
    }

    @exclusivity(unchecked) private var fingers: [UInt32: Finger] = [:]
    /// Fingers that began at a bad point: reported once, then ignored until they lift.
    @exclusivity(unchecked) private var rejectedFingers: Set<UInt32> = []

    func translate(_ frame: DigitizerFrame, diagnostics: DiagnosticLog) -> UIEvent? {
        guard frame.timestamp.isFinite else {
            diagnostics.report(Diagnostic(.invalidTouch, "digitizer frame with a non-finite timestamp was dropped"))
            return nil
        }
        var samples: [TouchSample] = []
        samples.reserveCapacity(frame.contacts.count)
        for contact in frame.contacts {
            let id = contact.identifier
            let reported = CGPoint(x: contact.x, y: contact.y)
            if contact.phase == .began {
                guard fingers[id] == nil else {
                    diagnostics.report(Diagnostic(.invalidTouch, "finger \(id) began again while down; contact dropped"))
                    continue
                }
                guard reported.isFinite else {
                    rejectedFingers.insert(id)
                    diagnostics.report(Diagnostic(.invalidTouch, "finger \(id) began at a non-finite point (\(contact.x), \(contact.y)); it is ignored until it lifts"))
                    continue
                }
                let touch = UITouch(fingerIdentifier: id)
                touch.type = Self.touchType(of: contact.kind)
                fingers[id] = Finger(touch: touch, location: reported)
                samples.append(sample(touch, .began, at: reported, contact))
                continue
            }
            guard var finger = fingers[id] else {
                if rejectedFingers.contains(id) {
                    if contact.phase == .ended || contact.phase == .cancelled { rejectedFingers.remove(id) }
                    continue
                }
                diagnostics.report(Diagnostic(.invalidTouch, "finger \(id) is not down; \(contact.phase) contact dropped"))
                continue
            }
            if reported.isFinite {
                finger.location = reported
            } else {
                diagnostics.report(Diagnostic(.invalidTouch, "finger \(id) moved to a non-finite point (\(contact.x), \(contact.y)); it keeps its last position"))
            }
            let phase = Self.touchPhase(of: contact.phase, moved: reported.isFinite)
            if phase == .ended || phase == .cancelled {
                fingers[id] = nil
            } else {
                fingers[id] = finger
            }
            guard !finger.touch.isEndedByApplication else { continue }
            samples.append(sample(finger.touch, phase, at: finger.location, contact))
        }
        for (_, finger) in fingers where !finger.touch.isEndedByApplication {
            var reported = false
            for sample in samples where sample.touch === finger.touch { reported = true }
            guard !reported else { continue }
            samples.append(TouchSample(
                touch: finger.touch, phase: .stationary, location: finger.location,
                majorRadius: finger.touch.majorRadius, majorRadiusTolerance: finger.touch.majorRadiusTolerance,
                force: finger.touch.force, maximumPossibleForce: finger.touch.maximumPossibleForce))
        }
        guard !samples.isEmpty else { return nil }
        return UIEvent(touchSamples: samples, timestamp: frame.timestamp)
    }

    private func sample(_ touch: UITouch, _ phase: UITouch.Phase, at location: CGPoint, _ contact: DigitizerContact) -> TouchSample {
        TouchSample(
            touch: touch, phase: phase, location: location,
            majorRadius: Self.finiteOrZero(contact.majorRadius),
            majorRadiusTolerance: Self.finiteOrZero(contact.majorRadiusTolerance),
            force: Self.finiteOrZero(contact.force),
            maximumPossibleForce: Self.finiteOrZero(contact.maximumPossibleForce))
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
