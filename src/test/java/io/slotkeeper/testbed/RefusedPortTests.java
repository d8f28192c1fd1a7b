package io.slotkeeper.testbed;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class RefusedPortTests {

	@Test
	void aConnectionToTheRefusedPortIsRefusedAtOnce() {
		assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress("127.0.0.1", RefusedPort.PORT), 2_000);
			}
		});
	}

}
