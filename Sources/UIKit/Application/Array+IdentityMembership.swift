/// Membership by identity for the event path's lists of objects (windows,
/// recognizers, touches, timers): whether a list holds this very object,
/// and where. Each list holds an object at most once. The elements are
/// compared as addresses, without a retain each, and without `==`, which
/// for a class may be anything.
extension Array where Element: AnyObject {
    /// Whether the array holds `object` itself (not merely an equal one).
    func containsIdentical(_ object: Element) -> Bool {
        firstIndexIdentical(to: object) != nil
    }

    /// Where `object` itself first appears, if it does.
    func firstIndexIdentical(to object: Element) -> Int? {
        let target = Unmanaged.passUnretained(object).toOpaque()
        return withUnsafeBufferPointer { buffer in
            for index in buffer.indices where unretainedElement(buffer, index).toOpaque() == target { return index }
            return nil
        }
    }
}
