import HID

/// Opens the input source for `--device PATH`.
public func openInputDevice(_ path: String, screen: Screen) throws(InputSourceError) -> any InputSource {
    throw .unreadable("\(path): reading input devices is not built yet")
}
