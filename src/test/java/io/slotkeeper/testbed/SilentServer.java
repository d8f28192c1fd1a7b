package io.slotkeeper.testbed;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * Accepts connections and never answers, like a server whose host stopped responding.
 */
public final class SilentServer implements AutoCloseable {

	private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());

	private final List<Socket> accepted = new ArrayList<>();

	private final Thread acceptor = new Thread(this::accept, "silent-server");

	/**
	 * Starts listening on a free loopback port.
	 * @throws IOException when no port can be had
	 */
	public SilentServer() throws IOException {
		this.acceptor.setDaemon(true);
		this.acceptor.start();
	}

	/**
	 * The port it listens on.
	 * @return the port
	 */
	public int port() {
		return this.socket.getLocalPort();
	}

	/**
	 * How many connections it has accepted so far.
	 * @return the count
	 */
	public int accepted() {
		synchronized (this.accepted) {
			return this.accepted.size();
		}
	}

	private void accept() {
		try {
			while (true) {
				Socket client = this.socket.accept();
				synchronized (this.accepted) {
					this.accepted.add(client);
				}
			}
		}
		catch (IOException ex) {
			// Closed: the test is over.
		}
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
		synchronized (this.accepted) {
			for (Socket client : this.accepted) {
				client.close();
			}
		}
	}

}
