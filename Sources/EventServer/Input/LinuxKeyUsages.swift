/// Linux key codes (`KEY_*` of `<linux/input-event-codes.h>`) as USB HID
/// usages: the numbers of the USB HID Usage Tables' keyboard page (0x07)
/// and, for the buttons a TV remote has, the consumer page (0x0C). These are
/// the usages an application's `UIPress` is made from (`UIKeyboardHIDUsage`
/// on the keyboard page; `.menu`, `.select` and `.playPause` on the
/// consumer page).
///
/// The pairs are the inverse of the kernel's own HID keyboard table (the
/// one that turns a USB keyboard's usages into `KEY_*` codes).
public enum LinuxKeyUsages {
    public static let keyboardPage: UInt16 = 0x07
    public static let consumerPage: UInt16 = 0x0C

    /// The usage page and usage of a key code, or nil for a code that has
    /// none (mouse buttons, and keys no HID keyboard has).
    public static func usage(forKey code: UInt16) -> (page: UInt16, usage: UInt16)? {
        if let usage = keyboard[code] { return (keyboardPage, usage) }
        if let usage = consumer[code] { return (consumerPage, usage) }
        return nil
    }

    /// Keyboard page usages by Linux key code.
    static let keyboard: [UInt16: UInt16] = {
        var table: [UInt16: UInt16] = [
            1: 0x29,  // KEY_ESC
            11: 0x27,  // KEY_0
            12: 0x2D, 13: 0x2E,  // KEY_MINUS, KEY_EQUAL
            14: 0x2A, 15: 0x2B,  // KEY_BACKSPACE, KEY_TAB
            26: 0x2F, 27: 0x30, 28: 0x28, 29: 0xE0,  // KEY_LEFTBRACE, KEY_RIGHTBRACE, KEY_ENTER, KEY_LEFTCTRL
            39: 0x33, 40: 0x34, 41: 0x35, 42: 0xE1, 43: 0x31,  // ; ' ` KEY_LEFTSHIFT KEY_BACKSLASH
            51: 0x36, 52: 0x37, 53: 0x38, 54: 0xE5,  // , . / KEY_RIGHTSHIFT
            55: 0x55, 56: 0xE2, 57: 0x2C, 58: 0x39,  // KEY_KPASTERISK, KEY_LEFTALT, KEY_SPACE, KEY_CAPSLOCK
            69: 0x53, 70: 0x47,  // KEY_NUMLOCK, KEY_SCROLLLOCK
            71: 0x5F, 72: 0x60, 73: 0x61, 74: 0x56,  // KEY_KP7, KEY_KP8, KEY_KP9, KEY_KPMINUS
            75: 0x5C, 76: 0x5D, 77: 0x5E, 78: 0x57,  // KEY_KP4, KEY_KP5, KEY_KP6, KEY_KPPLUS
            79: 0x59, 80: 0x5A, 81: 0x5B, 82: 0x62, 83: 0x63,  // KEY_KP1, KEY_KP2, KEY_KP3, KEY_KP0, KEY_KPDOT
            85: 0x94, 86: 0x64, 87: 0x44, 88: 0x45,  // KEY_ZENKAKUHANKAKU, KEY_102ND, KEY_F11, KEY_F12
            89: 0x87, 90: 0x92, 91: 0x93, 92: 0x8A, 93: 0x88, 94: 0x8B, 95: 0x8C,  // KEY_RO … KEY_KPJPCOMMA
            96: 0x58, 97: 0xE4, 98: 0x54, 99: 0x46, 100: 0xE6,  // KEY_KPENTER, KEY_RIGHTCTRL, KEY_KPSLASH, KEY_SYSRQ, KEY_RIGHTALT
            102: 0x4A, 103: 0x52, 104: 0x4B, 105: 0x50, 106: 0x4F,  // KEY_HOME, KEY_UP, KEY_PAGEUP, KEY_LEFT, KEY_RIGHT
            107: 0x4D, 108: 0x51, 109: 0x4E, 110: 0x49, 111: 0x4C,  // KEY_END, KEY_DOWN, KEY_PAGEDOWN, KEY_INSERT, KEY_DELETE
            113: 0x7F, 114: 0x81, 115: 0x80, 116: 0x66, 117: 0x67,  // KEY_MUTE, KEY_VOLUMEDOWN, KEY_VOLUMEUP, KEY_POWER, KEY_KPEQUAL
            119: 0x48, 121: 0x85, 122: 0x90, 123: 0x91, 124: 0x89,  // KEY_PAUSE, KEY_KPCOMMA, KEY_HANGEUL, KEY_HANJA, KEY_YEN
            125: 0xE3, 126: 0xE7, 127: 0x65,  // KEY_LEFTMETA, KEY_RIGHTMETA, KEY_COMPOSE
            128: 0x78, 129: 0x79, 130: 0x76, 131: 0x7A, 132: 0x77,  // KEY_STOP, KEY_AGAIN, KEY_PROPS, KEY_UNDO, KEY_FRONT
            133: 0x7C, 134: 0x74, 135: 0x7D, 136: 0x7E, 137: 0x7B, 138: 0x75,  // KEY_COPY, KEY_OPEN, KEY_PASTE, KEY_FIND, KEY_CUT, KEY_HELP
        ]
        // KEY_1 … KEY_9 (2…10): usages 0x1E … 0x26.
        for code: UInt16 in 2...10 { table[code] = 0x1E + (code - 2) }
        // The letter rows, in the order of the keys on a US keyboard.
        for (code, usage) in zip(UInt16(16)...25, [0x14, 0x1A, 0x08, 0x15, 0x17, 0x1C, 0x18, 0x0C, 0x12, 0x13] as [UInt16]) {
            table[code] = usage  // KEY_Q … KEY_P
        }
        for (code, usage) in zip(UInt16(30)...38, [0x04, 0x16, 0x07, 0x09, 0x0A, 0x0B, 0x0D, 0x0E, 0x0F] as [UInt16]) {
            table[code] = usage  // KEY_A … KEY_L
        }
        for (code, usage) in zip(UInt16(44)...50, [0x1D, 0x1B, 0x06, 0x19, 0x05, 0x11, 0x10] as [UInt16]) {
            table[code] = usage  // KEY_Z … KEY_M
        }
        // KEY_F1 … KEY_F10 (59…68): usages 0x3A … 0x43.
        for code: UInt16 in 59...68 { table[code] = 0x3A + (code - 59) }
        // KEY_F13 … KEY_F24 (183…194): usages 0x68 … 0x73.
        for code: UInt16 in 183...194 { table[code] = 0x68 + (code - 183) }
        return table
    }()

    /// Consumer page usages by Linux key code: the buttons `UIPress` has a
    /// type for.
    static let consumer: [UInt16: UInt16] = [
        139: 0x40,  // KEY_MENU: Menu (UIPress .menu)
        0x160: 0x41,  // KEY_OK: Menu Pick (UIPress .select)
        0x161: 0x41,  // KEY_SELECT: Menu Pick (UIPress .select)
        164: 0xCD,  // KEY_PLAYPAUSE: Play/Pause (UIPress .playPause)
    ]

    /// The modifier keys and the flag each holds, in UIKit's
    /// `UIKeyModifierFlags` bits, which is what a button event's
    /// `modifierFlags` carries to an application.
    static let modifierFlags: [UInt16: UInt32] = [
        42: shiftFlag, 54: shiftFlag,  // KEY_LEFTSHIFT, KEY_RIGHTSHIFT
        29: controlFlag, 97: controlFlag,  // KEY_LEFTCTRL, KEY_RIGHTCTRL
        56: alternateFlag, 100: alternateFlag,  // KEY_LEFTALT, KEY_RIGHTALT
        125: commandFlag, 126: commandFlag,  // KEY_LEFTMETA, KEY_RIGHTMETA
    ]
    /// `KEY_CAPSLOCK`, which toggles ``alphaShiftFlag`` each time it goes down.
    static let capsLockKey: UInt16 = 58

    // UIKeyModifierFlags' raw values (UIKit's public constants).
    public static let alphaShiftFlag: UInt32 = 1 << 16
    public static let shiftFlag: UInt32 = 1 << 17
    public static let controlFlag: UInt32 = 1 << 18
    public static let alternateFlag: UInt32 = 1 << 19
    public static let commandFlag: UInt32 = 1 << 20
    public static let numericPadFlag: UInt32 = 1 << 21

    /// Keypad keys, which carry ``numericPadFlag``.
    static let keypadKeys: Set<UInt16> = [55, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 96, 98, 117, 121]
}
