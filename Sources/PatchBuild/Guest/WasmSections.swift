/// Just enough of the wasm binary format to split a linked module into the shipped bytes and its
/// symbol map: custom sections are dropped from the shipped module, and the `name` section's
/// function names become `symbols.json`.
enum WasmSections {
    struct Section {
        let id: UInt8
        let range: Range<Int>
        let payload: Range<Int>
    }

    static func readULEB(_ bytes: [UInt8], _ position: inout Int) -> UInt32? {
        var result: UInt32 = 0
        var shift: UInt32 = 0
        while position < bytes.count, shift < 35 {
            let byte = bytes[position]
            position += 1
            result |= UInt32(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }

    static func sections(_ bytes: [UInt8]) -> [Section]? {
        guard bytes.count >= 8, Array(bytes[0..<4]) == [0, 0x61, 0x73, 0x6D] else { return nil }
        var sections: [Section] = []
        var position = 8
        while position < bytes.count {
            let start = position
            let id = bytes[position]
            position += 1
            guard let size = readULEB(bytes, &position), Int(size) <= bytes.count - position else { return nil }
            sections.append(Section(id: id, range: start..<(position + Int(size)), payload: position..<(position + Int(size))))
            position += Int(size)
        }
        return sections
    }

    /// The module without custom sections (names, producers, target features): what ships.
    static func stripped(_ bytes: [UInt8]) -> [UInt8]? {
        guard let sections = sections(bytes) else { return nil }
        var output = Array(bytes[0..<8])
        for section in sections where section.id != 0 { output.append(contentsOf: bytes[section.range]) }
        return output
    }

    /// Function index → name, from the `name` custom section's function-names subsection.
    static func functionNames(_ bytes: [UInt8]) -> [(index: UInt32, name: String)] {
        guard let sections = sections(bytes) else { return [] }
        for section in sections where section.id == 0 {
            var position = section.payload.lowerBound
            guard let nameLength = readULEB(bytes, &position), Int(nameLength) <= section.payload.upperBound - position else { continue }
            let sectionName = String(decoding: bytes[position..<(position + Int(nameLength))], as: UTF8.self)
            position += Int(nameLength)
            guard sectionName == "name" else { continue }
            while position < section.payload.upperBound {
                let subsection = bytes[position]
                position += 1
                guard let size = readULEB(bytes, &position), Int(size) <= section.payload.upperBound - position else { return [] }
                let end = position + Int(size)
                defer { position = end }
                guard subsection == 1 else { continue }
                var cursor = position
                guard let count = readULEB(bytes, &cursor) else { return [] }
                var names: [(UInt32, String)] = []
                for _ in 0..<count {
                    guard let index = readULEB(bytes, &cursor), let length = readULEB(bytes, &cursor), Int(length) <= end - cursor else { return names }
                    names.append((index, String(decoding: bytes[cursor..<(cursor + Int(length))], as: UTF8.self)))
                    cursor += Int(length)
                }
                return names
            }
        }
        return []
    }
}
