//! The deny adapter `pixgate policy seal` plugs into a component: WASI files and sockets that
//! give it nothing.
//!
//! The JavaScript and Python engines (componentize-js, componentize-py) and Rust's
//! `wasm32-wasip2` standard library import `wasi:filesystem` and often `wasi:sockets` through
//! their libc, whatever the step's code does. pixgate refuses an upload with those imports;
//! sealing satisfies them inside the component with this adapter instead:
//! - `wasi:filesystem`: no directory is preopened, so there is no descriptor to open a file from;
//! - `wasi:sockets`: creating a TCP or UDP socket and resolving a name answer `access-denied`.
//!
//! Every other function belongs to a resource of which no value can be made here (a descriptor,
//! a socket, a stream of addresses), so its body is an empty `match` on the uninhabited
//! [`Never`]. The result imports only what it already did elsewhere (`wasi:io`,
//! `wasi:clocks`), which pixgate serves deterministically.
//!
//! `no_std`, built for `wasm32-unknown-unknown` and turned into a component by
//! sandbox/build.rs, like the bundled steps.
#![no_std]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;

#[path = "../../heap.rs"]
mod heap;

/// Nothing here can panic but an allocation failure; trap without a message, as the adapter has
/// no log to write to.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}

wit_bindgen::generate!({ path: "wit", world: "deny", generate_all });

use exports::wasi::filesystem::preopens;
use exports::wasi::filesystem::types::{
    self, Advice, DescriptorFlags, DescriptorStat, DescriptorType, DirectoryEntry,
    DirectoryEntryStream, MetadataHashValue, NewTimestamp, OpenFlags, PathFlags,
};
use exports::wasi::sockets::ip_name_lookup::ResolveAddressStream;
use exports::wasi::sockets::tcp::ShutdownType;
use exports::wasi::sockets::udp::{
    IncomingDatagram, IncomingDatagramStream, OutgoingDatagram, OutgoingDatagramStream,
};
use exports::wasi::sockets::{
    instance_network, ip_name_lookup, network, tcp, tcp_create_socket, udp, udp_create_socket,
};
use wasi::io::{poll, streams};

struct Deny;

/// The type of every resource no call can create.
pub enum Never {}

/// The one network a component is given: every socket and lookup on it is denied.
pub struct NoNetwork;

impl types::Guest for Deny {
    type Descriptor = Never;
    type DirectoryEntryStream = Never;

    fn filesystem_error_code(_: &wasi::io::error::Error) -> Option<types::ErrorCode> {
        None
    }
}

impl types::GuestDescriptor for Never {
    fn read_via_stream(&self, _: u64) -> Result<streams::InputStream, types::ErrorCode> {
        match *self {}
    }
    fn write_via_stream(&self, _: u64) -> Result<streams::OutputStream, types::ErrorCode> {
        match *self {}
    }
    fn append_via_stream(&self) -> Result<streams::OutputStream, types::ErrorCode> {
        match *self {}
    }
    fn advise(&self, _: u64, _: u64, _: Advice) -> Result<(), types::ErrorCode> {
        match *self {}
    }
    fn sync_data(&self) -> Result<(), types::ErrorCode> {
        match *self {}
    }
    fn get_flags(&self) -> Result<DescriptorFlags, types::ErrorCode> {
        match *self {}
    }
    fn get_type(&self) -> Result<DescriptorType, types::ErrorCode> {
        match *self {}
    }
    fn set_size(&self, _: u64) -> Result<(), types::ErrorCode> {
        match *self {}
    }
    fn set_times(&self, _: NewTimestamp, _: NewTimestamp) -> Result<(), types::ErrorCode> {
        match *self {}
    }
    fn read(&self, _: u64, _: u64) -> Result<(Vec<u8>, bool), types::ErrorCode> {
        match *self {}
    }
    fn write(&self, _: Vec<u8>, _: u64) -> Result<u64, types::ErrorCode> {
        match *self {}
    }
    fn read_directory(&self) -> Result<DirectoryEntryStream, types::ErrorCode> {
        match *self {}
    }
    fn sync(&self) -> Result<(), types::ErrorCode> {
        match *self {}
    }
    fn create_directory_at(&self, _: String) -> Result<(), types::ErrorCode> {
        match *self {}
    }
    fn stat(&self) -> Result<DescriptorStat, types::ErrorCode> {
        match *self {}
    }
    fn stat_at(&self, _: PathFlags, _: String) -> Result<DescriptorStat, types::ErrorCode> {
        match *self {}
    }
    fn set_times_at(
        &self,
        _: PathFlags,
        _: String,
        _: NewTimestamp,
        _: NewTimestamp,
    ) -> Result<(), types::ErrorCode> {
        match *self {}
    }
    fn link_at(
        &self,
        _: PathFlags,
        _: String,
        _: types::DescriptorBorrow<'_>,
        _: String,
    ) -> Result<(), types::ErrorCode> {
        match *self {}
    }
    fn open_at(
        &self,
        _: PathFlags,
        _: String,
        _: OpenFlags,
        _: DescriptorFlags,
    ) -> Result<types::Descriptor, types::ErrorCode> {
        match *self {}
    }
    fn readlink_at(&self, _: String) -> Result<String, types::ErrorCode> {
        match *self {}
    }
    fn remove_directory_at(&self, _: String) -> Result<(), types::ErrorCode> {
        match *self {}
    }
    fn rename_at(
        &self,
        _: String,
        _: types::DescriptorBorrow<'_>,
        _: String,
    ) -> Result<(), types::ErrorCode> {
        match *self {}
    }
    fn symlink_at(&self, _: String, _: String) -> Result<(), types::ErrorCode> {
        match *self {}
    }
    fn unlink_file_at(&self, _: String) -> Result<(), types::ErrorCode> {
        match *self {}
    }
    fn is_same_object(&self, _: types::DescriptorBorrow<'_>) -> bool {
        match *self {}
    }
    fn metadata_hash(&self) -> Result<MetadataHashValue, types::ErrorCode> {
        match *self {}
    }
    fn metadata_hash_at(
        &self,
        _: PathFlags,
        _: String,
    ) -> Result<MetadataHashValue, types::ErrorCode> {
        match *self {}
    }
}

impl types::GuestDirectoryEntryStream for Never {
    fn read_directory_entry(&self) -> Result<Option<DirectoryEntry>, types::ErrorCode> {
        match *self {}
    }
}

impl preopens::Guest for Deny {
    fn get_directories() -> Vec<(types::Descriptor, String)> {
        Vec::new()
    }
}

impl network::Guest for Deny {
    type Network = NoNetwork;
}

impl network::GuestNetwork for NoNetwork {}

impl instance_network::Guest for Deny {
    fn instance_network() -> network::Network {
        network::Network::new(NoNetwork)
    }
}

impl ip_name_lookup::Guest for Deny {
    type ResolveAddressStream = Never;

    fn resolve_addresses(
        _: network::NetworkBorrow<'_>,
        _: String,
    ) -> Result<ResolveAddressStream, network::ErrorCode> {
        Err(network::ErrorCode::AccessDenied)
    }
}

impl ip_name_lookup::GuestResolveAddressStream for Never {
    fn resolve_next_address(&self) -> Result<Option<network::IpAddress>, network::ErrorCode> {
        match *self {}
    }
    fn subscribe(&self) -> poll::Pollable {
        match *self {}
    }
}

impl tcp::Guest for Deny {
    type TcpSocket = Never;
}

impl tcp::GuestTcpSocket for Never {
    fn start_bind(
        &self,
        _: network::NetworkBorrow<'_>,
        _: network::IpSocketAddress,
    ) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn finish_bind(&self) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn start_connect(
        &self,
        _: network::NetworkBorrow<'_>,
        _: network::IpSocketAddress,
    ) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn finish_connect(
        &self,
    ) -> Result<(streams::InputStream, streams::OutputStream), network::ErrorCode> {
        match *self {}
    }
    fn start_listen(&self) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn finish_listen(&self) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn accept(
        &self,
    ) -> Result<(tcp::TcpSocket, streams::InputStream, streams::OutputStream), network::ErrorCode>
    {
        match *self {}
    }
    fn local_address(&self) -> Result<network::IpSocketAddress, network::ErrorCode> {
        match *self {}
    }
    fn remote_address(&self) -> Result<network::IpSocketAddress, network::ErrorCode> {
        match *self {}
    }
    fn is_listening(&self) -> bool {
        match *self {}
    }
    fn address_family(&self) -> network::IpAddressFamily {
        match *self {}
    }
    fn set_listen_backlog_size(&self, _: u64) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn keep_alive_enabled(&self) -> Result<bool, network::ErrorCode> {
        match *self {}
    }
    fn set_keep_alive_enabled(&self, _: bool) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn keep_alive_idle_time(&self) -> Result<u64, network::ErrorCode> {
        match *self {}
    }
    fn set_keep_alive_idle_time(&self, _: u64) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn keep_alive_interval(&self) -> Result<u64, network::ErrorCode> {
        match *self {}
    }
    fn set_keep_alive_interval(&self, _: u64) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn keep_alive_count(&self) -> Result<u32, network::ErrorCode> {
        match *self {}
    }
    fn set_keep_alive_count(&self, _: u32) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn hop_limit(&self) -> Result<u8, network::ErrorCode> {
        match *self {}
    }
    fn set_hop_limit(&self, _: u8) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn receive_buffer_size(&self) -> Result<u64, network::ErrorCode> {
        match *self {}
    }
    fn set_receive_buffer_size(&self, _: u64) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn send_buffer_size(&self) -> Result<u64, network::ErrorCode> {
        match *self {}
    }
    fn set_send_buffer_size(&self, _: u64) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn subscribe(&self) -> poll::Pollable {
        match *self {}
    }
    fn shutdown(&self, _: ShutdownType) -> Result<(), network::ErrorCode> {
        match *self {}
    }
}

impl tcp_create_socket::Guest for Deny {
    fn create_tcp_socket(
        _: network::IpAddressFamily,
    ) -> Result<tcp::TcpSocket, network::ErrorCode> {
        Err(network::ErrorCode::AccessDenied)
    }
}

impl udp::Guest for Deny {
    type UdpSocket = Never;
    type IncomingDatagramStream = Never;
    type OutgoingDatagramStream = Never;
}

impl udp::GuestUdpSocket for Never {
    fn start_bind(
        &self,
        _: network::NetworkBorrow<'_>,
        _: network::IpSocketAddress,
    ) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn finish_bind(&self) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn stream(
        &self,
        _: Option<network::IpSocketAddress>,
    ) -> Result<(IncomingDatagramStream, OutgoingDatagramStream), network::ErrorCode> {
        match *self {}
    }
    fn local_address(&self) -> Result<network::IpSocketAddress, network::ErrorCode> {
        match *self {}
    }
    fn remote_address(&self) -> Result<network::IpSocketAddress, network::ErrorCode> {
        match *self {}
    }
    fn address_family(&self) -> network::IpAddressFamily {
        match *self {}
    }
    fn unicast_hop_limit(&self) -> Result<u8, network::ErrorCode> {
        match *self {}
    }
    fn set_unicast_hop_limit(&self, _: u8) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn receive_buffer_size(&self) -> Result<u64, network::ErrorCode> {
        match *self {}
    }
    fn set_receive_buffer_size(&self, _: u64) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn send_buffer_size(&self) -> Result<u64, network::ErrorCode> {
        match *self {}
    }
    fn set_send_buffer_size(&self, _: u64) -> Result<(), network::ErrorCode> {
        match *self {}
    }
    fn subscribe(&self) -> poll::Pollable {
        match *self {}
    }
}

impl udp::GuestIncomingDatagramStream for Never {
    fn receive(&self, _: u64) -> Result<Vec<IncomingDatagram>, network::ErrorCode> {
        match *self {}
    }
    fn subscribe(&self) -> poll::Pollable {
        match *self {}
    }
}

impl udp::GuestOutgoingDatagramStream for Never {
    fn check_send(&self) -> Result<u64, network::ErrorCode> {
        match *self {}
    }
    fn send(&self, _: Vec<OutgoingDatagram>) -> Result<u64, network::ErrorCode> {
        match *self {}
    }
    fn subscribe(&self) -> poll::Pollable {
        match *self {}
    }
}

impl udp_create_socket::Guest for Deny {
    fn create_udp_socket(
        _: network::IpAddressFamily,
    ) -> Result<udp::UdpSocket, network::ErrorCode> {
        Err(network::ErrorCode::AccessDenied)
    }
}

export!(Deny);
