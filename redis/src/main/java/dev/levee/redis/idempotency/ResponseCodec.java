package dev.levee.redis.idempotency;

import dev.levee.idempotency.StoredResponse;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bytes a {@link StoredResponse} is kept as in Redis (field {@code r} of a completed record):
 * compact and binary-safe, with no dependency.
 *
 * <pre>
 *   version   1 byte, = 1
 *   status    varint
 *   headers   varint count, then per header: name (string), varint value count, values (strings)
 *   body      varint length, then the bytes as given
 *   string    varint UTF-8 length, then the UTF-8 bytes
 *   varint    unsigned LEB128: 7 bits per byte, low bits first, high bit set on every byte but the last
 * </pre>
 * A 201 with one header and a 100-byte body takes about 130 bytes. {@link #decode} refuses anything it
 * did not write (a wrong version, a length past the end, bytes left over) with an
 * {@link IllegalArgumentException}: the store reports that as garbage from the server.
 */
final class ResponseCodec {
    static final int VERSION = 1;

    private ResponseCodec() {}

    static byte[] encode(StoredResponse response) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(32 + response.bodyLength());
        out.write(VERSION);
        varint(out, response.status());
        Map<String, List<String>> headers = response.headers();
        varint(out, headers.size());
        for (Map.Entry<String, List<String>> h : headers.entrySet()) {
            string(out, h.getKey());
            varint(out, h.getValue().size());
            for (String value : h.getValue()) {
                string(out, value);
            }
        }
        byte[] body = response.body();
        varint(out, body.length);
        out.write(body, 0, body.length);
        return out.toByteArray();
    }

    static StoredResponse decode(byte[] bytes) {
        Reader in = new Reader(bytes);
        int version = in.u8();
        if (version != VERSION) {
            throw new IllegalArgumentException("unknown stored-response version " + version);
        }
        int status = in.varint();
        int count = in.varint();
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            String name = in.string();
            int values = in.varint();
            List<String> list = new ArrayList<>(Math.min(values, 16));
            for (int v = 0; v < values; v++) {
                list.add(in.string());
            }
            headers.put(name, list);
        }
        byte[] body = in.bytes(in.varint());
        if (in.pos != bytes.length) {
            throw new IllegalArgumentException((bytes.length - in.pos) + " bytes after the stored response");
        }
        return StoredResponse.of(status, headers, body);
    }

    private static void varint(ByteArrayOutputStream out, int value) {
        int v = value;
        while ((v & ~0x7F) != 0) {
            out.write((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }

    private static void string(ByteArrayOutputStream out, String s) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        varint(out, utf8.length);
        out.write(utf8, 0, utf8.length);
    }

    /** Reads what {@link #encode} wrote, refusing anything out of bounds. */
    private static final class Reader {
        private final byte[] bytes;
        private int pos;

        Reader(byte[] bytes) {
            this.bytes = bytes;
        }

        int u8() {
            if (pos >= bytes.length) {
                throw new IllegalArgumentException("stored response truncated at byte " + pos);
            }
            return bytes[pos++] & 0xFF;
        }

        int varint() {
            int value = 0;
            for (int shift = 0; shift < 32; shift += 7) {
                int b = u8();
                value |= (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    if (value < 0) {
                        break;
                    }
                    return value;
                }
            }
            throw new IllegalArgumentException("bad length in stored response at byte " + pos);
        }

        byte[] bytes(int length) {
            if (length > bytes.length - pos) {
                throw new IllegalArgumentException("length " + length + " past the end of the stored response");
            }
            byte[] out = new byte[length];
            System.arraycopy(bytes, pos, out, 0, length);
            pos += length;
            return out;
        }

        String string() {
            return new String(bytes(varint()), StandardCharsets.UTF_8);
        }
    }
}
