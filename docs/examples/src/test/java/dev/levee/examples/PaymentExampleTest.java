package dev.levee.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.circuitbreaker.CircuitState;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Seed 000's payment gateway: "never charge a customer twice for the same request". */
class PaymentExampleTest {
    private final ManualTicker ticker = new ManualTicker();
    private final List<String> charged = new CopyOnWriteArrayList<>();
    private final AtomicInteger processorOutages = new AtomicInteger();
    private final LossyNetwork network = new LossyNetwork(0);
    private final PaymentGateway gateway;
    private final PaymentClient client;

    PaymentExampleTest() throws IOException {
        gateway = new PaymentGateway(body -> {
            if (processorOutages.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IOException("card processor unavailable");
            }
            charged.add(body);
            return "ch_" + charged.size();
        }, network);
        client = new PaymentClient(gateway.base(), ticker, ticker, RandomSource.seeded(0));
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    @Test
    void aPaymentIsCharged() throws Exception {
        PaymentClient.Receipt receipt = client.pay("acme", "1001", 4200);
        assertThat(receipt).isEqualTo(new PaymentClient.Receipt(201, "{\"charge\":\"ch_1\"}", false));
        assertThat(charged).containsExactly("{\"order\":\"1001\",\"amount\":4200}");
    }

    @Test
    void aLostResponseIsRetriedAndTheCardIsChargedOnce() throws Exception {
        network.loseNext(1);
        PaymentClient.Receipt receipt = client.pay("acme", "1002", 4200);
        assertThat(receipt).isEqualTo(new PaymentClient.Receipt(201, "{\"charge\":\"ch_1\"}", true));
        assertThat(charged).hasSize(1);
        assertThat(network.keysSeen).containsExactly("order-1002", "order-1002");
        assertThat(client.retry().metrics().successfulWithRetry()).isEqualTo(1);
    }

    @Test
    void payingForTheSameOrderAgainIsAnsweredFromTheRecord() throws Exception {
        client.pay("acme", "1003", 4200);
        PaymentClient.Receipt again = client.pay("acme", "1003", 4200); // a double click
        assertThat(again).isEqualTo(new PaymentClient.Receipt(201, "{\"charge\":\"ch_1\"}", true));
        assertThat(charged).hasSize(1);
    }

    @Test
    void twoMerchantsKeysNeverCollide() throws Exception {
        client.pay("acme", "1004", 4200);
        PaymentClient.Receipt other = client.pay("globex", "1004", 990);
        assertThat(other.replayed()).isFalse();
        assertThat(charged).hasSize(2);
    }

    @Test
    void aProcessorOutageReleasesTheKeySoTheRetryCharges() throws Exception {
        processorOutages.set(1);
        PaymentClient.Receipt receipt = client.pay("acme", "1005", 4200);
        assertThat(receipt).isEqualTo(new PaymentClient.Receipt(201, "{\"charge\":\"ch_1\"}", false));
        assertThat(charged).hasSize(1);
        assertThat(gateway.guard().metrics().released()).as("the 503 was not stored").isEqualTo(1);
    }

    @Test
    void theBreakerCountsEveryAttempt() throws Exception {
        processorOutages.set(1);
        client.pay("acme", "1006", 4200);
        assertThat(client.breaker().state()).isEqualTo(CircuitState.CLOSED);
        assertThat(client.breaker().metrics().calls()).as("the 503 and the retried charge").isEqualTo(2);
        assertThat(client.breaker().metrics().failedCalls()).isEqualTo(1);
    }
}
