package dev.levee.redis.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.levee.idempotency.StoredResponse;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ResponseCodecTest {

    @Test
    void everyByteValueAndUnicodeHeadersRoundTrip() {
        byte[] body = new byte[512];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) i;
        }
        StoredResponse r = StoredResponse.of(201, Map.of("Location", List.of("/charges/ch_1"),
                "X-Note", List.of("naïve ☃", "second", "")), body);
        StoredResponse back = ResponseCodec.decode(ResponseCodec.encode(r));
        assertThat(back).isEqualTo(r);
        assertThat(back.headers().get("x-note")).containsExactly("naïve ☃", "second", "");
        assertThat(back.body()).isEqualTo(body);
    }

    @Test
    void emptyResponseIsSmall() {
        byte[] bytes = ResponseCodec.encode(StoredResponse.of(204, Map.of(), new byte[0]));
        assertThat(bytes).hasSize(5); // version, status (2-byte varint), 0 headers, 0 body
        assertThat(ResponseCodec.decode(bytes)).isEqualTo(StoredResponse.of(204, Map.of(), new byte[0]));
    }

    @Test
    void largeLengthsUseMultiByteVarints() {
        byte[] body = new byte[300_000];
        new SplittableRandom(7).nextBytes(body);
        StoredResponse r = StoredResponse.of(200, Map.of("h", List.of("x".repeat(200))), body);
        byte[] bytes = ResponseCodec.encode(r);
        assertThat(bytes.length).isLessThan(body.length + 220);
        assertThat(ResponseCodec.decode(bytes)).isEqualTo(r);
    }

    @Test
    void refusesWhatItDidNotWrite() {
        byte[] good = ResponseCodec.encode(StoredResponse.of(200, Map.of("a", List.of("b")), new byte[] {1, 2, 3}));
        assertThatThrownBy(() -> ResponseCodec.decode(new byte[0])).isInstanceOf(IllegalArgumentException.class);
        byte[] version = good.clone();
        version[0] = 9;
        assertThatThrownBy(() -> ResponseCodec.decode(version)).hasMessageContaining("version 9");
        for (int cut = 1; cut < good.length; cut++) {
            byte[] truncated = Arrays.copyOf(good, cut);
            assertThatThrownBy(() -> ResponseCodec.decode(truncated)).as("cut at %d", cut)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        byte[] longer = Arrays.copyOf(good, good.length + 1);
        assertThatThrownBy(() -> ResponseCodec.decode(longer)).hasMessageContaining("after the stored response");
        byte[] hugeLength = {1, (byte) 0xC8, 1, 0, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07};
        assertThatThrownBy(() -> ResponseCodec.decode(hugeLength)).isInstanceOf(IllegalArgumentException.class);
    }
}
