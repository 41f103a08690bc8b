package dev.levee.checks;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the types a class file mentions from its constant pool: every {@code CONSTANT_Utf8} entry is
 * searched for {@code dev/levee/...} class names, which covers class references, field and method
 * descriptors and generic signatures. No bytecode library needed (JVMS §4.4).
 */
final class ConstantPool {
    private static final Pattern LEVEE_TYPE = Pattern.compile("dev/levee/[A-Za-z0-9_/$]+");

    private ConstantPool() {}

    static TreeSet<String> referencedTypes(byte[] bytes) {
        TreeSet<String> types = new TreeSet<>();
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            if (in.readInt() != 0xCAFEBABE) {
                throw new IllegalArgumentException("not a class file");
            }
            in.readUnsignedShort(); // minor
            in.readUnsignedShort(); // major
            int count = in.readUnsignedShort();
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> { // Utf8
                        Matcher m = LEVEE_TYPE.matcher(in.readUTF());
                        while (m.find()) {
                            types.add(m.group());
                        }
                    }
                    case 3, 4 -> in.readInt(); // Integer, Float
                    case 5, 6 -> { // Long, Double take two slots
                        in.readLong();
                        i++;
                    }
                    case 7, 8, 16, 19, 20 -> in.readUnsignedShort(); // Class, String, MethodType, Module, Package
                    case 9, 10, 11, 12, 17, 18 -> in.readInt(); // refs, NameAndType, Dynamic, InvokeDynamic
                    case 15 -> { // MethodHandle
                        in.readUnsignedByte();
                        in.readUnsignedShort();
                    }
                    default -> throw new IllegalArgumentException("unknown constant pool tag " + tag);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return types;
    }
}
